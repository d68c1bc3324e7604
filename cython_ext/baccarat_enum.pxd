# Punto banco enumeration over a shoe given as counts of each card value.
#
# Contract: count_outcomes_c is noexcept nogil (it cannot fail, needs no GIL), allocates
# nothing, and writes only `out` (it changes value_counts while it runs and restores it).
from cython_ext._types cimport count_t, uint8_t, N_BACCARAT_VALUES

cdef enum:
    N_TOTALS = 10                       # a hand's total: its card values added, modulo 10
    N_DEALT_KINDS = 3                   # 4, 5 or 6 cards dealt
    N_SLOTS = N_TOTALS * N_TOTALS * N_DEALT_KINDS   # 300 outcome counters

# Drawing rules as flags (1 = draw / natural), filled from the rule file:
cdef struct Tableau:
    uint8_t natural[N_TOTALS]                 # two-card total that ends the round for both hands
    uint8_t player_draws[N_TOTALS]            # player's two-card total on which the player draws
    uint8_t banker_draws_alone[N_TOTALS]      # banker's total on which it draws when the player stood
    uint8_t banker_draws[N_TOTALS][N_BACCARAT_VALUES]   # [banker total][player's third-card value] -> banker draws

# Adds to out[(player total * N_TOTALS + banker total) * N_DEALT_KINDS + cards dealt - 4] the
# number of ordered 6-card sequences from the shoe that end in that outcome.  Every count
# stays below the shoe size to the sixth power; callers keep that under 2**63.
cdef void count_outcomes_c(count_t* value_counts, const Tableau* rules, count_t* out) noexcept nogil
