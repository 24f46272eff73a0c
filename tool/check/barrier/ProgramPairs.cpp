#include "barrier/ProgramPairs.h"

#include "CheckContext.h"
#include "barrier/BarrierSupport.h"
#include "analysis/Describe.h"
#include "summary/FromClang.h"
#include "summary/SummaryBuilder.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>
#include <map>

namespace lockwright {

namespace {

using Kind = OrderingEvent::Kind;

std::vector<Edit> editsOf(const CheckContext &Ctx, const std::vector<clang::FixItHint> &Fixes) {
  std::vector<Edit> Out;
  for (const clang::FixItHint &Fix : Fixes)
    Out.push_back(editOf(Ctx.ast().getSourceManager(), Fix, Ctx.langOpts()));
  return Out;
}

/// The location's name across TUs: a field by its record's definition (two files' own `struct
/// msg` are different records), a static variable by its declaration (each file has its own);
/// a variable with external linkage by its name, as the linker joins it.
std::string programLocation(SummaryBuilder &Keys, const OrderingEvent &E) {
  if (E.Record) {
    std::string Prefix = "record " + recordLabel(E.Record);
    if (E.Location.compare(0, Prefix.size(), Prefix) == 0)
      return "record " + Keys.recordKey(E.Record) + E.Location.substr(Prefix.size());
  }
  if (E.Global && !E.Global->isExternallyVisible())
    return E.Location + "@" + Keys.fieldKey(E.Global);
  return E.Location;
}

/// Whether another TU can reach the location: not a static variable, not a field of a record
/// the main file defines (each TU has its own).
bool sharedBeyondTu(const clang::SourceManager &SM, const OrderingEvent &E) {
  if (E.Global)
    return E.Global->isExternallyVisible();
  if (E.Record) {
    const clang::RecordDecl *Def = E.Record->getDefinition() ? E.Record->getDefinition() : E.Record;
    return !SM.isInMainFile(SM.getExpansionLoc(Def->getLocation()));
  }
  return true;
}

/// What both sides share: the function and the flag access.
OrderingSide sideOf(CheckContext &Ctx, SummaryBuilder &Keys, const FunctionOrdering &F, size_t I, bool Writer) {
  const clang::SourceManager &SM = Ctx.ast().getSourceManager();
  const OrderingEvent &E = F.Events[I];
  OrderingSide Side;
  Side.Writer = Writer;
  Side.Function = Keys.functionKey(F.Function);
  Side.Label = functionLabel(F);
  Side.Location = programLocation(Keys, E);
  Side.Text = E.LocationText;
  Side.Event = describeEvent(E);
  Side.At = pointOf(SM, E.At);
  Side.Index = static_cast<unsigned>(I);
  Side.Plain = E.How == OrderingEvent::Access::Plain;
  Side.Rmw = E.What != Kind::Load;
  return Side;
}

/// What a barrier-missing-acquire finding at a reader's guard load needs (the check judged across
/// TUs): whether it may report there, its fix and its note. Only for a reader that leaves some
/// load unordered: no pair with a fully ordered reader is reported.
void addReportInfo(CheckContext &Ctx, OrderingSide &Side, const OrderingEvent &E) {
  if (std::all_of(Side.Data.begin(), Side.Data.end(), [&](const SideAccess &A) { return A.Ordered || !A.Load; }))
    return;
  switch (Ctx.dispositionAt("barrier-missing-acquire", E.At)) {
  case CheckContext::Disposition::Reported:
    Side.Reportable = true;
    break;
  case CheckContext::Disposition::Suppressed:
    Side.Reportable = Side.Suppressed = true;
    break;
  case CheckContext::Disposition::Dropped:
    return;
  }
  Side.Fixes = editsOf(Ctx, strengthenFix(Ctx, E, ApiNames::MemoryOrder::Acquire));
  Side.HardwareNote = hardwareNote(Ctx, /*Stores=*/false);
}

SideAccess accessOf(const clang::SourceManager &SM, SummaryBuilder &Keys, const OrderingEvent &Flag,
                    const OrderingEvent &E, size_t I) {
  SideAccess A;
  A.Location = programLocation(Keys, E);
  A.Text = E.LocationText;
  A.At = pointOf(SM, E.At);
  A.Index = static_cast<unsigned>(I);
  A.InOneCallee = Flag.Inlined && E.Inlined && Flag.Range == E.Range;
  return A;
}

} // namespace

void exportOrderingSides(CheckContext &Ctx) {
  if (!Ctx.wholeProgram())
    return;
  OrderingModel &Model = Ctx.ordering();
  Model.pairs();
  const clang::SourceManager &SM = Ctx.ast().getSourceManager();
  SummaryBuilder Keys(Ctx, "barrier-missing-release");
  std::vector<OrderingSide> &Out = Ctx.summary().Sides;
  for (const FunctionOrdering &F : Model.functions())
    for (size_t I = 0; I < F.Events.size(); ++I) {
      const OrderingEvent &E = F.Events[I];
      if (!sharedBeyondTu(SM, E))
        continue; // its TU has seen every side it has
      if (Model.publishes(F, I)) {
        std::map<std::string, size_t> Stores = Model.dataStoresBefore(F, I);
        if (!Stores.empty()) {
          OrderingSide Side = sideOf(Ctx, Keys, F, I, /*Writer=*/true);
          for (const auto &[Location, D] : Stores) {
            SideAccess A = accessOf(SM, Keys, E, F.Events[D], D);
            A.Deliberate = releasesOn(Ctx, E) || deliberateBetween(Ctx, F, D, I, ordersStoresOn);
            Side.Data.push_back(std::move(A));
          }
          Out.push_back(std::move(Side));
        }
      }
      if (Model.guards(F, I)) {
        OrderingSide Side = sideOf(Ctx, Keys, F, I, /*Writer=*/false);
        Side.DependencyOrders = dependenciesOrder(Ctx, E);
        std::vector<size_t> Stray = strayLoadBarriers(F, I);
        Side.StrayBarriers.assign(Stray.begin(), Stray.end());
        // The first load and the first store through the guard's pointer of each location; a
        // location's loads depend on the guard only when all of them do.
        std::map<std::pair<std::string, bool>, size_t> First;
        for (size_t D = I + 1; D < F.Events.size(); ++D) {
          OrderingModel::GuardedUse Use = Model.guardedUse(F, I, D);
          if (Use == OrderingModel::GuardedUse::None)
            continue;
          bool Load = Use == OrderingModel::GuardedUse::Load;
          bool Dependent = Load && F.dependsOn(I, D, SM);
          auto [It, New] = First.emplace(std::make_pair(F.Events[D].Location, Load), Side.Data.size());
          if (!New) {
            Side.Data[It->second].Dependent &= Dependent;
            continue;
          }
          SideAccess A = accessOf(SM, Keys, E, F.Events[D], D);
          A.Load = Load;
          A.Dependent = Dependent;
          if (Load) {
            A.Ordered = loadsOrderedBetween(Ctx, F, I, D);
            A.Deliberate = acquiresOn(Ctx, E) || deliberateBetween(Ctx, F, I, D, ordersLoadsOn);
          }
          Side.Data.push_back(std::move(A));
        }
        if (!Side.Data.empty()) {
          addReportInfo(Ctx, Side, E);
          Out.push_back(std::move(Side));
        }
      }
    }
}

bool ProgramPair::dependencyOrders() const { return FirstLoad && LoadsDepend && Reader->DependencyOrders; }

std::vector<ProgramPair> programPairs(const ProgramSummary &Program) {
  std::vector<ProgramPair> Pairs;
  std::map<std::pair<std::string, std::string>, std::vector<const ProgramSummary::SeenSide *>> Readers;
  for (const ProgramSummary::SeenSide &S : Program.Sides)
    if (!S.Side.Writer)
      Readers[{S.Target, S.Side.Location}].push_back(&S);
  for (const ProgramSummary::SeenSide &W : Program.Sides) {
    if (!W.Side.Writer)
      continue;
    auto Found = Readers.find({W.Target, W.Side.Location});
    if (Found == Readers.end())
      continue;
    std::map<std::string, const SideAccess *> Stores;
    for (const SideAccess &A : W.Side.Data)
      Stores[A.Location] = &A;
    std::set<std::string> PairedFunctions; // a reader function pairs once with a publishing store, as in a TU
    for (const ProgramSummary::SeenSide *R : Found->second) {
      // A TU that saw both sides judged them itself; one function is both sides only in a TU.
      if (R->Side.Function == W.Side.Function || PairedFunctions.count(R->Side.Function) ||
          std::any_of(R->Tus.begin(), R->Tus.end(), [&](size_t Tu) { return W.Tus.count(Tu); }))
        continue;
      ProgramPair P;
      P.Writer = &W.Side;
      P.Reader = &R->Side;
      for (const SideAccess &A : R->Side.Data) {
        auto Store = Stores.find(A.Location);
        if (Store == Stores.end())
          continue;
        const SideAccess *S = Store->second;
        if (!P.LastStore || S->Index > P.LastStore->Index)
          P.LastStore = S;
        if (A.Load) {
          if (!P.FirstLoad || A.Index < P.FirstLoad->Index)
            P.FirstLoad = &A;
          P.LoadsDepend &= A.Dependent;
        }
        if (std::find(P.Data.begin(), P.Data.end(), A.Text) == P.Data.end())
          P.Data.push_back(A.Text);
      }
      if (!P.LastStore)
        continue;
      PairedFunctions.insert(R->Side.Function);
      Pairs.push_back(std::move(P));
    }
  }
  return Pairs;
}

} // namespace lockwright
