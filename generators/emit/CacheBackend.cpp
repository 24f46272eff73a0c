// P_cache.h: line sizes as constants, aligned/padded helpers, C++ cache_padded<T>.
#include "emit/Backends.h"

namespace lockwright {

void fillCacheData(const ResolvedSpec &Spec, TemplateData &Data) {
  for (const char *Key : {"l1_line", "smp_line", "destructive", "constructive"}) {
    TemplateData Fact;
    Fact.set("value", std::to_string(Spec.intFact(std::string("cache.") + Key + ".value")));
    Fact.set("source", Spec.stringFact(std::string("cache.") + Key + ".source"));
    Data.set(Key, Fact);
  }
}

} // namespace lockwright
