#include "app/ui/theme.h"

#include <imgui.h>

namespace attnviz::ui {
namespace {

constexpr float kLightBackground[4] = {0.93f, 0.94f, 0.95f, 1.0f};
constexpr float kDarkBackground[4] = {0.11f, 0.12f, 0.13f, 1.0f};
constexpr int kAccent = 0x3a78c2;
constexpr int kAccentHovered = 0x1f5fa8;
// On a dark background the blue is lighter, so that the white text on it and it on the
// background both read.
constexpr int kDarkAccent = 0x2f6fba;
constexpr int kDarkAccentHovered = 0x4a8ad6;

// Set with the style it belongs to: the theme's, or presentation mode's over it.
int g_accent = kAccent;
int g_accent_hovered = kAccentHovered;

ImVec4 rgb(int hex, float alpha = 1.0f) {
  return ImVec4(static_cast<float>((hex >> 16) & 0xff) / 255.0f, static_cast<float>((hex >> 8) & 0xff) / 255.0f,
                static_cast<float>(hex & 0xff) / 255.0f, alpha);
}

void light_colours(ImVec4* c) {
  c[ImGuiCol_Text] = rgb(0x1b1f24);
  c[ImGuiCol_TextDisabled] = rgb(0x5f6b78);
  c[ImGuiCol_WindowBg] = rgb(0xfbfbfc);
  c[ImGuiCol_ChildBg] = rgb(0xffffff, 0.0f);
  c[ImGuiCol_PopupBg] = rgb(0xffffff, 0.98f);
  c[ImGuiCol_Border] = rgb(0xc3c9d1);
  c[ImGuiCol_FrameBg] = rgb(0xeef1f4);
  c[ImGuiCol_FrameBgHovered] = rgb(0xdde7f3);
  c[ImGuiCol_FrameBgActive] = rgb(0xc9dbf0);
  c[ImGuiCol_TitleBg] = rgb(0xe4e8ed);
  c[ImGuiCol_TitleBgActive] = rgb(0xd6dde6);
  c[ImGuiCol_MenuBarBg] = rgb(0xe4e8ed);
  c[ImGuiCol_Header] = rgb(0xdfe5ec);
  c[ImGuiCol_HeaderHovered] = rgb(0xcddbea);
  c[ImGuiCol_HeaderActive] = rgb(0xb9cde3);
  c[ImGuiCol_Button] = rgb(0xe2e7ed);
  c[ImGuiCol_ButtonHovered] = rgb(0xc9dbf0);
  c[ImGuiCol_ButtonActive] = rgb(0xa9c5e6);
  c[ImGuiCol_CheckMark] = rgb(0x1f5fa8);
  c[ImGuiCol_SliderGrab] = rgb(0x9fbfe6);
  c[ImGuiCol_SliderGrabActive] = rgb(0x7fa8dc);
  c[ImGuiCol_Tab] = rgb(0xdfe5ec);
  c[ImGuiCol_TabHovered] = rgb(0xc9dbf0);
  c[ImGuiCol_TabActive] = rgb(0xffffff);
  c[ImGuiCol_Separator] = rgb(0xc3c9d1);
  c[ImGuiCol_PlotHistogram] = rgb(0x3a78c2);
  c[ImGuiCol_PlotHistogramHovered] = rgb(0xe07b00);
  c[ImGuiCol_TableHeaderBg] = rgb(0xe4e8ed);
  c[ImGuiCol_TableRowBgAlt] = rgb(0xf2f4f7);
}

// The light theme's roles in dark: text near white, greys a step apart so that fields, buttons
// and the selected tab stand out from the window without glare.
void dark_colours(ImVec4* c) {
  c[ImGuiCol_Text] = rgb(0xe8eaed);
  c[ImGuiCol_TextDisabled] = rgb(0xa3acb7);
  c[ImGuiCol_WindowBg] = rgb(0x1e2125);
  c[ImGuiCol_ChildBg] = rgb(0x000000, 0.0f);
  c[ImGuiCol_PopupBg] = rgb(0x25292e, 0.98f);
  c[ImGuiCol_Border] = rgb(0x49515b);
  c[ImGuiCol_FrameBg] = rgb(0x2c3137);
  c[ImGuiCol_FrameBgHovered] = rgb(0x36404c);
  c[ImGuiCol_FrameBgActive] = rgb(0x3e4d60);
  c[ImGuiCol_TitleBg] = rgb(0x25292e);
  c[ImGuiCol_TitleBgActive] = rgb(0x2c3137);
  c[ImGuiCol_MenuBarBg] = rgb(0x282c31);
  c[ImGuiCol_Header] = rgb(0x2f353c);
  c[ImGuiCol_HeaderHovered] = rgb(0x3a4552);
  c[ImGuiCol_HeaderActive] = rgb(0x445468);
  c[ImGuiCol_Button] = rgb(0x343a41);
  c[ImGuiCol_ButtonHovered] = rgb(0x3e4d60);
  c[ImGuiCol_ButtonActive] = rgb(0x4a6382);
  c[ImGuiCol_CheckMark] = rgb(0x7fb2ee);
  c[ImGuiCol_SliderGrab] = rgb(0x5a84b8);
  c[ImGuiCol_SliderGrabActive] = rgb(0x7fa8dc);
  c[ImGuiCol_Tab] = rgb(0x2c3137);
  c[ImGuiCol_TabHovered] = rgb(0x3e4d60);
  c[ImGuiCol_TabActive] = rgb(0x30506f);  // the view on screen, plainly blue
  c[ImGuiCol_Separator] = rgb(0x49515b);
  c[ImGuiCol_PlotHistogram] = rgb(0x5b95d9);
  c[ImGuiCol_PlotHistogramHovered] = rgb(0xf0a040);
  c[ImGuiCol_TableHeaderBg] = rgb(0x2c3137);
  c[ImGuiCol_TableRowBgAlt] = rgb(0x24282d);
}

}  // namespace

const char* theme_code(Theme theme) { return theme == Theme::Dark ? "dark" : "light"; }

std::optional<Theme> theme_from_code(const std::string& code) {
  if (code == "light") return Theme::Light;
  if (code == "dark") return Theme::Dark;
  return std::nullopt;
}

void set_theme_colours(ImGuiStyle& style, Theme theme) {
  if (theme == Theme::Dark) {
    ImGui::StyleColorsDark(&style);
    dark_colours(style.Colors);
  } else {
    ImGui::StyleColorsLight(&style);
    light_colours(style.Colors);
  }
}

void apply_theme(float ui_scale, Theme theme) {
  ImGuiStyle style;
  set_theme_colours(style, theme);
  style.WindowRounding = 0.0f;
  style.ChildRounding = 4.0f;
  style.FrameRounding = 4.0f;
  style.PopupRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.TabRounding = 4.0f;
  style.ScrollbarRounding = 6.0f;
  style.WindowBorderSize = 1.0f;
  style.FrameBorderSize = 1.0f;
  style.WindowPadding = ImVec2(10, 8);
  style.FramePadding = ImVec2(7, 4);
  style.ItemSpacing = ImVec2(8, 6);
  style.ItemInnerSpacing = ImVec2(6, 4);
  style.ScrollbarSize = 15.0f;
  style.GrabMinSize = 12.0f;
  style.WindowTitleAlign = ImVec2(0.0f, 0.5f);
  style.ScaleAllSizes(ui_scale);
  ImGui::GetStyle() = style;
  if (theme == Theme::Dark)
    set_accent_colours(kDarkAccent, kDarkAccentHovered);
  else
    set_accent_colours(kAccent, kAccentHovered);
}

const float* clear_colour(Theme theme) { return theme == Theme::Dark ? kDarkBackground : kLightBackground; }

ImVec4 accent_colour() { return rgb(g_accent); }
ImVec4 accent_hover_colour() { return rgb(g_accent_hovered); }

void set_accent_colours(int fill_rgb, int hovered_rgb) {
  g_accent = fill_rgb;
  g_accent_hovered = hovered_rgb;
}

}  // namespace attnviz::ui
