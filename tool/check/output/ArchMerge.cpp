#include "output/ArchMerge.h"

#include "StringList.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace lockwright {

namespace {

constexpr const char *Placeholder = "\x01"; // never in a message

bool wordChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// Text with each whole-word mention of an architecture replaced by the placeholder, and the
/// first one found.
std::pair<std::string, std::string> withoutArch(const std::string &Text, const std::vector<std::string> &Arches) {
  std::string Out, Found;
  for (size_t I = 0; I < Text.size();) {
    bool Replaced = false;
    if (I == 0 || !wordChar(Text[I - 1]))
      for (const std::string &A : Arches) // longest first: ppc64le before ppc64
        if (Text.compare(I, A.size(), A) == 0 && (I + A.size() == Text.size() || !wordChar(Text[I + A.size()]))) {
          if (Found.empty())
            Found = A;
          Out += Placeholder;
          I += A.size();
          Replaced = true;
          break;
        }
    if (!Replaced)
      Out += Text[I++];
  }
  return {Out, Found};
}

std::string substitute(const std::string &Text, const std::string &By) {
  std::string Out;
  for (char C : Text)
    if (C == Placeholder[0])
      Out += By;
    else
      Out += C;
  return Out;
}

std::string listOf(const std::vector<std::string> &Names) {
  if (Names.size() == 1)
    return Names[0];
  std::vector<std::string> Head(Names.begin(), Names.end() - 1);
  return joinList(Head, ", ") + " and " + Names.back();
}

using EditKey = std::tuple<std::string, unsigned, unsigned, std::string>;

} // namespace

std::vector<Finding> mergeAcrossArchitectures(const std::vector<const Finding *> &Findings,
                                              const std::vector<std::string> &ArchNames) {
  std::vector<std::string> Arches = ArchNames;
  std::sort(Arches.begin(), Arches.end(), [](const std::string &A, const std::string &B) {
    return A.size() != B.size() ? A.size() > B.size() : A < B;
  });
  struct Group {
    const Finding *First;
    std::string Message; // with the placeholder
    std::vector<std::string> Arches;
    std::vector<FindingNote> Notes;
    std::vector<std::string> NoteGeneric;               // each note with the placeholder
    std::vector<std::vector<std::string>> NoteArches;   // the architectures that gave each note
    std::vector<std::vector<std::string>> NoteSources;  // and their citations
    std::map<std::pair<SourcePoint, std::string>, size_t> NoteIndex; // by place and generic wording
  };
  std::vector<Group> Groups;
  std::map<std::tuple<std::string, SourcePoint, std::string, std::set<EditKey>>, size_t> Index;
  for (const Finding *F : Findings) {
    auto [Message, Arch] = withoutArch(F->Message, Arches);
    std::set<EditKey> Fixes;
    for (const Edit &E : F->Fixes)
      Fixes.insert({E.File, E.Offset, E.Length, E.Text});
    auto Key = std::make_tuple(F->Check, F->At, Message, Fixes);
    auto [It, New] = Index.try_emplace(Key, Groups.size());
    if (New)
      Groups.push_back({F, Message, {}, {}, {}, {}, {}, {}});
    Group &G = Groups[It->second];
    if (!Arch.empty() && std::find(G.Arches.begin(), G.Arches.end(), Arch) == G.Arches.end())
      G.Arches.push_back(Arch);
    // A note worded alike for each architecture ("'a' is an atomic by its type") once; one
    // that differs (the destructive size and its source) once per architecture.
    // A note worded alike but for the architecture ("the destructive interference size of
    // aarch64 is 64 bytes") becomes one naming them all, with each one's source.
    for (const FindingNote &N : F->Notes) {
      std::string Generic = withoutArch(N.Message, Arches).first;
      auto [Note, NewNote] = G.NoteIndex.try_emplace({N.At, Generic}, G.Notes.size());
      if (NewNote) {
        G.Notes.push_back(N);
        G.NoteGeneric.push_back(Generic);
        G.NoteArches.emplace_back();
        G.NoteSources.emplace_back();
      }
      size_t I = Note->second;
      if (!Arch.empty())
        G.NoteArches[I].push_back(Arch);
      if (!N.Source.empty() &&
          std::find(G.NoteSources[I].begin(), G.NoteSources[I].end(), N.Source) == G.NoteSources[I].end())
        G.NoteSources[I].push_back(N.Source);
    }
  }
  std::vector<Finding> Out;
  for (Group &G : Groups) {
    Finding F = *G.First;
    if (G.Arches.size() > 1) {
      F.Message = substitute(G.Message, listOf(G.Arches));
      // A note only some of them gave (arm's 4-byte offsets beside the 8 of the others) says whose.
      for (size_t I = 0; I < G.Notes.size(); ++I) {
        FindingNote &N = G.Notes[I];
        if (G.NoteGeneric[I].find(Placeholder[0]) != std::string::npos) {
          N.Message = substitute(G.NoteGeneric[I], listOf(G.NoteArches[I]));
          N.Source = joinList(G.NoteSources[I], "; ");
        } else if (G.NoteArches[I].size() < G.Arches.size()) {
          N.Message = "on " + listOf(G.NoteArches[I]) + ": " + N.Message;
        }
      }
      F.Notes = std::move(G.Notes);
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace lockwright
