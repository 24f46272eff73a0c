/* A user-supplied yield for LW_SPIN_YIELD(), as a test runtime or an RTOS would give. */
void my_yield(void);
