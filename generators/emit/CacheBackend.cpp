// P_cache.h: line sizes as constants, aligned/padded helpers, C++ cache_padded<T>.
#include "emit/Backends.h"

#include "spec/ArchModel.h"

namespace lockwright {

void fillCacheData(const ResolvedSpec &Spec, TemplateData &Data) {
  const ArchModel::CacheGeometry &Cache = Spec.model().Cache;
  for (const auto &[Key, Fact] : {std::pair{"l1_line", &Cache.L1Line}, std::pair{"smp_line", &Cache.SmpLine},
                                  std::pair{"destructive", &Cache.Destructive},
                                  std::pair{"constructive", &Cache.Constructive}}) {
    TemplateData D;
    D.set("value", std::to_string(Fact->Value));
    D.set("source", Fact->Source);
    Data.set(Key, D);
  }
}

} // namespace lockwright
