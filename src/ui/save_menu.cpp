// save_menu.cpp: every card's Save menu, and the cards the exports picture.
//
// Does: draw a small "Save" button at the top right of a card (begin_card /
// end_card, for the cards whose view table row names a page) or of the
// compact layout's panel; its menu asks the platform (Demo::request_export)
// for the card's page as a picture (PNG) or its numbers (CSV, JSON). In a
// sandboxed frame, where the browser may drop downloads, the menu says the
// file is offered to the page around the frame too. Also draws the export
// frames' layout: one page alone, as one card (view_table.h
// draw_page_picture), as wide as its first card was last shown, with no Save
// button and nothing hovered, so the platform can render that card into a
// picture (src/platform/export_png.cpp).
// Does not: save, encode or post anything (the platform does), or compute a
// number (app/export.h writes them).
#include "ui/save_menu.h"

#include <algorithm>
#include <map>
#include <string>

#include "app/view_table.h"
#include "imgui.h"
#include "app/lang.h"
#include "imgui_internal.h"
#include "ui/probes.h"
#include "ui/ui.h"
#include "ui/view_table.h"
#include "ui/widgets.h"

namespace headroom::ui {

namespace {

constexpr float kExportPad = 8.f;  // the export window's padding around its card
constexpr float kMaxExportWidth = 760.f;

Demo* g_demo = nullptr;             // set by draw_ui each frame (set_save_demo)
const char* g_card_view = nullptr;  // the card begin_card opened: its view, or nullptr
bool g_export = false;             // export frames: a page's picture is being drawn
std::string g_export_page;         // ... of this page
ImVec4 g_export_rect{};
bool g_sandboxed = false;
std::map<std::string, float> g_card_width;  // per view, the width its first card last had

}  // namespace

void set_save_demo(Demo& demo) { g_demo = &demo; }
void set_downloads_note(bool sandboxed) { g_sandboxed = sandboxed; }
bool downloads_may_be_dropped() { return g_sandboxed; }

const char* card_export_view(const char* card_id) {
  for (const app::ViewRow& row : app::kViewTable)
    if (std::string_view(row.card) == card_id) return row.page;
  return nullptr;
}

void card_opened(const char* card_id) { g_card_view = g_export ? nullptr : card_export_view(card_id); }

void card_closing() {
  const char* view = g_card_view;
  g_card_view = nullptr;
  if (view) record_card(view);
}

void record_card(const char* view) {
  if (g_export) return;
  // The card's rect (the debug layout's "cards", and its width for the picture).
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  auto& cards = layout().card_rects;
  if (std::none_of(cards.begin(), cards.end(), [&](const auto& c) { return c.first == view; })) {
    cards.emplace_back(view, ImVec4(p.x, p.y, p.x + s.x, p.y + s.y));
    g_card_width[view] = s.x;
  }
  save_control(view);
}

void save_control(const char* view) {
  if (!g_demo || g_export) return;
  // Top right of the window being drawn (a card, the compact panel), over
  // its title row: it adds no height, so a card that fits still fits.
  ImGui::PushID(view);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(5, 1));
  const ImVec2 keep = ImGui::GetCursorScreenPos();
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  const char* save = app::tr("Save");
  const float bw = ImGui::CalcTextSize(save).x + 10.f;
  ImGui::SetCursorScreenPos(ImVec2(w->WorkRect.Max.x - bw, w->Pos.y + w->WindowPadding.y));
  push_button_colors(palette().heads_off);
  if (ImGui::SmallButton(save)) ImGui::OpenPopup("##save");
  ImGui::PopStyleColor(4);
  record_visible_item(layout().save_rects);
  ImGui::SetItemTooltip("%s", app::tr("save this view's picture (PNG) or its numbers (CSV, JSON)"));
  ImGui::PopStyleVar();
  if (ImGui::BeginPopup("##save")) {
    struct Item {
      const char* label;
      const char* format;
    };
    constexpr Item kItems[] = {{N_("Picture (PNG)"), "png"}, {N_("Numbers (CSV)"), "csv"}, {N_("Numbers (JSON)"), "json"}};
    for (const Item& it : kItems) {
      if (ImGui::MenuItem(app::tr(it.label))) g_demo->request_export(view, it.format);
      record_visible_item(layout().save_menu);
    }
    if (g_sandboxed) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 260.f);
      ImGui::TextDisabled("%s", app::tr("This frame is sandboxed: unless the page allows downloads, the browser drops the "
                                        "file, so it is also offered to the page around the frame."));
      ImGui::PopTextWrapPos();
    }
    ImGui::EndPopup();
  }
  ImGui::SetCursorScreenPos(keep);
  ImGui::PopID();
}

bool has_export_card(std::string_view view) { return page_has_picture(view); }

void begin_export_frames(std::string_view view) {
  g_export = page_has_picture(view);
  g_export_page = g_export ? std::string(view) : std::string();
}
void end_export_frames() { g_export = false; }
bool export_frames() { return g_export; }
ImVec4 export_card_rect() { return g_export_rect; }

void draw_export_card(Demo& demo) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const auto known = g_card_width.find(g_export_page);
  const float width = known != g_card_width.end() ? known->second
                                                  : std::min(vp->WorkSize.x - 2 * kExportPad, kMaxExportWidth);
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(ImVec2(width + 2 * kExportPad, vp->WorkSize.y));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(kExportPad, kExportPad));
  ImGui::Begin("##export", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleVar();
  begin_card("##export_card");
  draw_page_picture(demo, g_export_page);
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  g_export_rect = ImVec4(p.x, p.y, p.x + s.x, p.y + s.y);
  end_card();
  ImGui::End();
}

}  // namespace headroom::ui
