#include "StringList.h"

namespace lockwright {

std::vector<std::string> splitList(const std::string &Text, char Separator) {
  std::vector<std::string> Items;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find(Separator, Start);
    std::string Item = Text.substr(Start, End == std::string::npos ? std::string::npos : End - Start);
    Item.erase(0, Item.find_first_not_of(" \t\r\n"));
    Item.erase(Item.find_last_not_of(" \t\r\n") + 1);
    if (!Item.empty())
      Items.push_back(Item);
    if (End == std::string::npos)
      break;
    Start = End + 1;
  }
  return Items;
}

std::string joinList(const std::vector<std::string> &Items, const std::string &Separator) {
  std::string Out;
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? Separator : "") + Items[I];
  return Out;
}

std::string shellQuoted(const std::string &Word) {
  bool Plain = !Word.empty() && Word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                       "0123456789_-+=./,:@%") == std::string::npos;
  if (Plain)
    return Word;
  std::string Out = "'";
  for (char C : Word)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

std::string withoutCommentEnd(std::string Text) {
  for (size_t At = Text.find("*/"); At != std::string::npos; At = Text.find("*/", At))
    Text.insert(At + 1, " ");
  return Text;
}

} // namespace lockwright
