struct broken { int x };
this is not C;
