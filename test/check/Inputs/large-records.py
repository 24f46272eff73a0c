"""Writes the sources of check/large-records.test into the directory given."""
import os
import sys

out = sys.argv[1]
with open(os.path.join(out, "wide.c"), "w") as f:
    f.write("#include <stdatomic.h>\nstruct wide {\n")
    f.write("".join("  atomic_long f%d;\n" % i for i in range(10000)))
    f.write("};\nstruct wide w;\n")
    f.write("".join("void inc%d(void) { atomic_fetch_add(&w.f%d, 1); }\n" % (i, i) for i in range(10000)))
with open(os.path.join(out, "deep.c"), "w") as f:
    f.write("#include <stdatomic.h>\n")
    f.write("struct n199 { atomic_long a; atomic_long b; };\n")
    for i in range(198, -1, -1):
        f.write("struct n%d { struct n%d inner; };\n" % (i, i + 1))
    path = "d" + ".inner" * 199
    f.write("struct n0 d;\nvoid fa(void) { atomic_fetch_add(&%s.a, 1); }\nvoid fb(void) { atomic_fetch_add(&%s.b, 1); }\n"
            % (path, path))
with open(os.path.join(out, "shapes.c"), "w") as f:
    f.write("""#include <stdatomic.h>
struct with_bits { unsigned ready : 1; unsigned count : 7; atomic_int flags; atomic_long hits; };
struct with_bits wb;
void set_flag(void) { atomic_fetch_or(&wb.flags, 1); }
void hit(void) { atomic_fetch_add(&wb.hits, 1); }
struct with_fam { atomic_long n; long data[]; };
struct with_fam *fam;
void grow(void) { atomic_fetch_add(&fam->n, 1); }
union either { atomic_long a; atomic_int b; };
union either u;
void ua(void) { atomic_fetch_add(&u.a, 1); }
void ub(void) { atomic_fetch_add(&u.b, 1); }
""")
