#pragma once
// An include that runs up (ui is below panels): the layer check must refuse it.
#include "app/panels/panels.h"
