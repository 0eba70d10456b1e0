// The catalogues the build compiled, switched live as View ▸ Language switches them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "app/i18n/catalogue_characters.h"
#include "app/i18n/language.h"
#include "app/i18n/translate.h"

namespace attnviz::i18n {
namespace {

class Translation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    setenv("ATTNVIZ_LOCALE_DIR", ATTNVIZ_BUILT_LOCALE_DIR, 1);
    start_translation(Language::Korean);
  }
  void TearDown() override { use_language(Language::Korean); }
};

TEST_F(Translation, KoreanMenusAndCountedPhrases) {
  EXPECT_STREQ(tr("View"), "보기");
  EXPECT_STREQ(trn("%s token", "%s tokens", 1), "토큰 %s개");
  EXPECT_STREQ(trn("%s token", "%s tokens", 3), "토큰 %s개");
  EXPECT_STREQ(trc("key", "Right"), "→");
  EXPECT_EQ(format(trn("%d head (%d K/V)", "%d heads (%d K/V)", 4), 4, 2), "헤드 4개 (K/V 2개)");
}

TEST_F(Translation, SwitchesLiveBothWays) {
  use_language(Language::English);
  EXPECT_STREQ(tr("View"), "View");
  EXPECT_STREQ(trn("%s token", "%s tokens", 3), "%s tokens");
  use_language(Language::Korean);  // glibc's cache of the English lookups must not answer
  EXPECT_STREQ(tr("View"), "보기");
}

TEST_F(Translation, PseudoLocaleBracketsAndLengthens) {
  use_language(Language::Pseudo);
  const std::string shown = tr("Show the whole matrix");
  EXPECT_EQ(shown.front(), '[');
  EXPECT_EQ(shown.back(), ']');
  EXPECT_GE(shown.size(), std::string("Show the whole matrix").size() * 14 / 10);
  EXPECT_NE(format(tr("Opened %s"), "x.json").find("x.json"), std::string::npos);  // directives kept
}

TEST_F(Translation, LabelsKeepTheirIdInEveryLanguage) {
  EXPECT_EQ(tr_label("View"), "보기###View");
  use_language(Language::English);
  EXPECT_EQ(tr_label("View"), "View###View");
  EXPECT_EQ(tr_label("Open", "file-open"), "Open###file-open");
}

TEST_F(Translation, AnUnknownStringIsShownAsWritten) { EXPECT_STREQ(tr("no such message"), "no such message"); }

TEST_F(Translation, TheHeadingFontsGetTheTranslationsHangul) {
  const std::vector<char32_t> characters = catalogue_characters();
  EXPECT_TRUE(std::binary_search(characters.begin(), characters.end(), U'보'));  // 보기
  EXPECT_TRUE(std::binary_search(characters.begin(), characters.end(), U'→'));
  EXPECT_FALSE(std::binary_search(characters.begin(), characters.end(), U'V')) << "ASCII is always there";
  EXPECT_LT(characters.size(), 2000u) << "the catalogue's syllables, not all of Hangul";
}

TEST(LanguageChoice, FollowsLanguageThenLcAllThenLcMessagesThenLang) {
  const auto from = [](std::map<std::string, std::string> env) {
    return language_from_environment([&env](const char* name) -> const char* {
      const auto found = env.find(name);
      return found == env.end() ? nullptr : found->second.c_str();
    });
  };
  EXPECT_EQ(from({{"LANG", "ko_KR.UTF-8"}}), Language::Korean);
  EXPECT_EQ(from({{"LANG", "en_GB.UTF-8"}}), Language::English);
  EXPECT_EQ(from({}), Language::English);
  EXPECT_EQ(from({{"LANG", "ko_KR.UTF-8"}, {"LC_MESSAGES", "C"}}), Language::English);
  EXPECT_EQ(from({{"LANG", "en_US.UTF-8"}, {"LC_ALL", "ko_KR.UTF-8"}}), Language::Korean);
  EXPECT_EQ(from({{"LANG", "en_US.UTF-8"}, {"LANGUAGE", "ko:en"}}), Language::Korean);
  EXPECT_EQ(from({{"LANG", "ko_KR.UTF-8"}, {"LANGUAGE", ""}}), Language::Korean);  // empty: not set
}

TEST(LanguageChoice, CodesRoundTrip) {
  for (Language language : {Language::Desktop, Language::English, Language::Korean, Language::Pseudo})
    EXPECT_EQ(language_from_code(language_code(language)), language);
  EXPECT_FALSE(language_from_code("klingon").has_value());
}

}  // namespace
}  // namespace attnviz::i18n
