// One entry of an API spec's `names:` as the name tables read it. A shipped spec's entries are
// written as static tables when lockwright is built (lockwright-spec-tablegen), so a check run
// per source file does not rebuild the spec's tree to read them again.
#ifndef LOCKWRIGHT_MODEL_API_APINAMEENTRY_H
#define LOCKWRIGHT_MODEL_API_APINAMEENTRY_H

#include <string_view>

namespace lockwright {

/// Views into the spec's parsed tree or into the prebuilt tables.
struct ApiNameEntry {
  std::string_view Name;
  std::string_view Op;
  std::string_view Order; // empty where the entry has no `order:`
  std::string_view Kind;  // `kind:` (function, macro, template, ...), empty where absent
  int OrderArg = -1;
  bool HardwareRmw = false;
  std::string_view Member; // `member:`, empty where absent
};

} // namespace lockwright

#endif
