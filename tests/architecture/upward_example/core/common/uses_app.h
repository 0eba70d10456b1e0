#pragma once
// core never includes app/.
#include "app/ui/panel.h"
