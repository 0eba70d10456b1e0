#pragma once
// Command-line options of the attnviz subcommands: "--name value", "--name=value" and flags.
// Every mistake becomes an InputError naming the option, so main() exits 2 with a message.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::cli {

struct OptionSpec {
  std::string name;  // "--scenario"
  bool takes_value = true;
};

class ParsedArgs {
 public:
  [[nodiscard]] bool has(const std::string& name) const { return values_.contains(name); }
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const;
  [[nodiscard]] std::string get_or(const std::string& name, const std::string& fallback) const;
  // The value as an integer in [min, max]; throws InputError naming the option otherwise.
  [[nodiscard]] std::optional<int> get_int(const std::string& name, int min, int max) const;
  [[nodiscard]] const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend ParsedArgs parse_args(const std::vector<std::string>&, const std::vector<OptionSpec>&, const std::string&);
  std::map<std::string, std::string> values_;  // flags map to ""
  std::vector<std::string> positionals_;
};

// `command` names the subcommand in messages ("attnviz export"). Unknown options, missing
// values and repeated options throw InputError("<command line>", option, problem).
ParsedArgs parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                      const std::string& command);

// An option's list, "0,2" or "rows:cols": every part, empty ones included ("a,,b" has three).
std::vector<std::string> split_list(const std::string& text, char separator);

// Throws InputError unless value is one of the choices (message lists them).
void require_choice(const std::string& option, const std::string& value, const std::vector<std::string>& choices);

}  // namespace attnviz::cli
