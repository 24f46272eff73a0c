#include "ring.hpp"

bool produce(Ring &r);
unsigned consume(Ring &r);

int main() {
  Ring r;
  produce(r);
  return consume(r) == 0 ? 0 : 1;
}
