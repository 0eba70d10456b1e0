// attnviz tokenize: a text through a pretrained model's own tokenizer (docs/design.md "Real
// models"): {"ids": [...], "tokens": [...]}.

#include <ostream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/json_output.h"
#include "app/cli/model_options.h"
#include "core/common/error.h"
#include "core/model/model_json.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz tokenize --model PATH (--text TEXT | --text-file FILE) [--out FILE]\n"
    "\n"
    "Splits TEXT into the tokens of a pretrained model's own tokenizer and writes\n"
    "{\"ids\": [...], \"tokens\": [...]}: the ids the model sees (with the special tokens it\n"
    "expects, such as Llama's <s> or BERT's [CLS] ... [SEP]) and each token as a readable label\n"
    "(a space as ␣; a character cut between tokens named in each with the numbers of\n"
    "its UTF-8 bytes that token holds: 안₁₂ 안₃; other stray bytes as <0xEC>).\n"
    "\n"
    "Options:\n"
    "  --model PATH     a Hugging Face model folder (config.json, model.safetensors and the\n"
    "                   tokenizer files: tokenizer.json, vocab.json + merges.txt or vocab.txt)\n"
    "                   or a .gguf file (its tokenizer is in its metadata); the weights are\n"
    "                   not read\n"
    "  --text TEXT      the text (UTF-8)\n"
    "  --text-file FILE the text is this UTF-8 file's content\n"
    "  --out FILE       write the JSON to FILE instead of standard output\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the file and the field), 1 other errors.\n";

const std::vector<OptionSpec> kOptions = {{"--model"}, {"--text"}, {"--text-file"}, {"--out"}, {"--help", false}};

}  // namespace

int run_tokenize_command(const Args& args, std::ostream& out, std::ostream& err) {
  (void)err;
  const ParsedArgs parsed = parse_args(args, kOptions, "attnviz tokenize");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError("<command line>", parsed.positionals().front(),
                     "unexpected argument (see attnviz tokenize --help)");
  }
  return naming_the_text_file(parsed, [&] {
    const std::string text = model_text(parsed);
    const auto model = open_model(parsed, /*weights=*/false);
    write_output(parsed.get("--out"), model::encoding_json(model->tokenizer().encode(text, "--text")), out);
    return 0;
  });
}

}  // namespace attnviz::cli
