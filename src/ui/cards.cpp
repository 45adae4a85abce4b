// cards.cpp: the cards around the views and their Save menus (cards.h).
//
// Does: draw a card around a view and a small "Save" button at the top right
// of a card whose view table row names a page (or of the compact layout's
// panel); its menu asks the platform (Demo::request_export) for the card's
// page as a picture (PNG) or its numbers (CSV, JSON). In a sandboxed frame,
// where the browser may drop downloads, the menu says the file is offered to
// the page around the frame too. Remembers each page's first card width (the
// export frames draw the page's picture that wide: ui.cpp).
// Does not: save, encode or post anything (the platform does), or compute a
// number (app/state/export.h writes them).
#include "ui/cards.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "app/lang/lang.h"
#include "app/state/view_rows.h"
#include "imgui_internal.h"
#include "ui/frame.h"
#include "ui/palette.h"
#include "ui/probes.h"
#include "ui/widgets.h"

namespace headroom::ui {

const char* card_export_view(const char* card_id) {
  for (const app::ViewRow& row : app::kViewTable)
    if (std::string_view(row.card) == card_id) return row.page;
  return nullptr;
}

void begin_card(const char* id, ImU32 tint) {
  ImGui::PushStyleColor(ImGuiCol_ChildBg, tint ? tint : palette().card);
  ImGui::PushStyleColor(ImGuiCol_Border, palette().card_border);
  ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, 8.f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(14, 10));
  ImGui::BeginChild(id, ImVec2(0, 0),
                    ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY | ImGuiChildFlags_AlwaysUseWindowPadding,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  frame().cards.page = frame().exporting.on ? nullptr : card_export_view(id);
}

void end_card() {
  const char* page = frame().cards.page;
  frame().cards.page = nullptr;
  if (page) record_card(page);
  ImGui::EndChild();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor(2);
}

void record_card(const char* view) {
  if (frame().exporting.on) return;
  // The card's rect (the debug layout's "cards", and its width for the picture).
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  if (probe_named("cards", view, ImVec4(p.x, p.y, p.x + s.x, p.y + s.y))) frame().cards.width[view] = s.x;
  save_control(view);
}

void save_control(const char* view) {
  if (!frame().demo || frame().exporting.on) return;
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
  probe_visible_item("save");
  ImGui::SetItemTooltip("%s", app::tr("save this view's picture (PNG) or its numbers (CSV, JSON)"));
  ImGui::PopStyleVar();
  if (ImGui::BeginPopup("##save")) {
    struct Item {
      const char* label;
      const char* format;
    };
    constexpr Item kItems[] = {{N_("Picture (PNG)"), "png"}, {N_("Numbers (CSV)"), "csv"}, {N_("Numbers (JSON)"), "json"}};
    for (const Item& it : kItems) {
      if (ImGui::MenuItem(app::tr(it.label))) frame().demo->request_export(view, it.format);
      probe_visible_item("saveMenu");
    }
    if (frame().sandboxed) {
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

}  // namespace headroom::ui
