#pragma once
// View ▸ Language: English, 한국어, or the desktop's language, switched live (app/i18n); the
// pseudo-locale too when ATTNVIZ_LANGUAGE is set (the layout check's catalogue).

namespace attnviz::panels {

// Between the View menu's BeginMenu and EndMenu.
void draw_language_menu();

}  // namespace attnviz::panels
