# Punto banco enumeration over a shoe given as counts of each card value.
from cython_ext._types cimport count_t, uint8_t

# Drawing rules as flags (1 = draw / natural), filled from the rule file:
cdef struct Tableau:
    uint8_t natural[10]                 # two-card total that ends the round for both hands
    uint8_t player_draws[10]            # player's two-card total on which the player draws
    uint8_t banker_draws_alone[10]      # banker's total on which it draws when the player stood
    uint8_t banker_draws[10][10]        # [banker total][player's third-card value] -> banker draws

# Adds to out[player total][banker total][cards dealt - 4] the number of ordered
# 6-card sequences from the shoe that end in that outcome.  Every count stays
# below the shoe size to the sixth power; callers keep that under 2**63.
cdef void count_outcomes_c(count_t* value_counts, const Tableau* rules, count_t* out) noexcept nogil
