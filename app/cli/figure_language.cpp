#include "app/cli/figure_language.h"

#include <stdexcept>

#include "app/i18n/catalogue_dir.h"
#include "app/i18n/language.h"
#include "app/i18n/translate.h"

namespace attnviz::cli {

Wording figure_wording(const ParsedArgs& parsed) {
  const std::string code = parsed.get_or("--lang", "en");
  require_choice("--lang", code, {"en", "ko"});
  if (code == "en") return {};
  if (!i18n::catalogue_dir()) {
    throw std::runtime_error(
        "--lang ko: the Korean catalogue (ko/LC_MESSAGES/attnviz.mo) was found neither beside this binary nor "
        "where attnviz is installed; set ATTNVIZ_LOCALE_DIR to the folder that holds ko/");
  }
  i18n::start_translation(i18n::Language::Korean);
  return i18n::wording();
}

}  // namespace attnviz::cli
