#include "output/LineFilter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace lockwright {

bool LineFilter::passes(const SourcePoint &At) const {
  if (Files.empty())
    return true;
  for (const auto &[Name, Ranges] : Files) {
    if (!llvm::StringRef(At.File).ends_with(Name))
      continue;
    if (Ranges.empty())
      return true;
    for (const auto &[First, Last] : Ranges)
      if (First <= At.Line && At.Line <= Last)
        return true;
  }
  return false;
}

std::optional<LineFilter> parseLineFilter(const std::string &Text, std::string &Error) {
  LineFilter Out;
  if (Text.empty())
    return Out;
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed) {
    Error = "not JSON (" + llvm::toString(Parsed.takeError()) +
            "); expected a list of {\"name\": FILE, \"lines\": [[FIRST, LAST], ...]}";
    return std::nullopt;
  }
  const llvm::json::Array *Files = Parsed->getAsArray();
  if (!Files) {
    Error = "expected a list of {\"name\": FILE, \"lines\": [[FIRST, LAST], ...]}";
    return std::nullopt;
  }
  for (const llvm::json::Value &Entry : *Files) {
    const llvm::json::Object *File = Entry.getAsObject();
    std::optional<llvm::StringRef> Name = File ? File->getString("name") : std::nullopt;
    if (!Name) {
      Error = "each entry needs a \"name\"";
      return std::nullopt;
    }
    std::vector<std::pair<unsigned, unsigned>> Ranges;
    if (const llvm::json::Value *Lines = File->get("lines")) {
      const llvm::json::Array *List = Lines->getAsArray();
      for (size_t I = 0; List && I < List->size(); ++I) {
        const llvm::json::Array *Range = (*List)[I].getAsArray();
        std::optional<int64_t> First = Range && Range->size() == 2 ? (*Range)[0].getAsInteger() : std::nullopt;
        std::optional<int64_t> Last = Range && Range->size() == 2 ? (*Range)[1].getAsInteger() : std::nullopt;
        if (!First || !Last) {
          List = nullptr;
          break;
        }
        Ranges.emplace_back(static_cast<unsigned>(*First), static_cast<unsigned>(*Last));
      }
      if (!List) {
        Error = "\"lines\" of '" + Name->str() + "' must be a list of [FIRST, LAST] pairs";
        return std::nullopt;
      }
    }
    Out.Files.emplace_back(Name->str(), std::move(Ranges));
  }
  return Out;
}

} // namespace lockwright
