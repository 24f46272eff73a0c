/* 16 accounts moved between by 4 threads: each account is guarded by the lock
 * a hashed table picks for its address (PA-RISC's __atomic_hash pattern), and
 * a ticket lock (the out-of-line .S routine) guards the transfer log. */
#include "lw_lockhash.h"
#include "lw_spinlock.h"
#include "lw_spinlock_asm.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define ACCOUNTS 16
#define THREADS 4
#define TRANSFERS 50000

static struct {
	long balance;
} LW_DESTRUCTIVE_ALIGNED accounts[ACCOUNTS];

static lw_lockhash_t table;
static lw_ticket_lock_t log_lock = LW_TICKET_LOCK_INIT;
static unsigned long transfers_logged;

static void add(int account, long amount)
{
	lw_spinlock_t *lock = lw_lock_hash(&table, &accounts[account]);
	lw_spin_lock(lock);
	accounts[account].balance += amount;
	lw_spin_unlock(lock);
}

static void *teller(void *arg)
{
	unsigned seed = (unsigned)(long)arg * 2654435761u;
	for (int i = 0; i < TRANSFERS; i++) {
		seed = seed * 1103515245u + 12345u;
		int from = (int)(seed >> 8) % ACCOUNTS, to = (int)(seed >> 16) % ACCOUNTS;
		long amount = (long)(seed % 100);
		add(from, -amount);
		add(to, amount);
		lw_asm_ticket_lock(&log_lock);
		transfers_logged++;
		lw_asm_ticket_unlock(&log_lock);
		if (i % 64 == 0)
			sched_yield();
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	lw_lockhash_init(&table);
	for (int i = 0; i < ACCOUNTS; i++)
		accounts[i].balance = 1000;
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, teller, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	long total = 0;
	for (int i = 0; i < ACCOUNTS; i++)
		total += accounts[i].balance;
	printf("bank: %d accounts, total %ld (expected %d), %lu transfers logged (expected %d)\n", ACCOUNTS, total,
	       ACCOUNTS * 1000, transfers_logged, THREADS * TRANSFERS);
	printf("bank: lock table of %d locks, %d bytes apart\n", LW_LOCKHASH_SIZE, (int)sizeof(lw_lockhash_slot_t));
	return total == ACCOUNTS * 1000 && transfers_logged == (unsigned long)THREADS * TRANSFERS ? 0 : 1;
}
