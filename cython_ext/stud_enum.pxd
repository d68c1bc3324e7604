# Caribbean Stud enumeration: exact counts of the dealer's completions for (player hand, up card)
# situations, by card removal over hands swept in poker order (see stud_enum.pyx).
#
# Positions, not cards: a deck is any set of 10..52 cards (a reduced deck keeps the same poker
# rules); the kernel works on each card's position 0..n-1 in the deck, ascending.  A k-card
# subset is indexed by its colex index sum_i C(p_i, i + 1) over its sorted positions p_0 < ...
# (_types.pxd: colex5, binomial_table_t).
#
# Contract: sweep_share is noexcept nogil (it cannot fail, needs no GIL), allocates nothing
# and writes only its own counters, snapshot and masks and its runs' entries of out.
from cython_ext._types cimport card_t, uint8_t, uint16_t, uint32_t, uint64_t, binomial_table_t, HAND, N_CARDS

cdef enum:
    MAX_DECK = N_CARDS
    MIN_DECK = 10                   # 5 player cards + the up card + 4 dealer cards

# The deck's 5-card hands, built once per count: read-only during the sweep.
cdef struct DeckTables:
    int n_cards                     # cards in the deck, MIN_DECK..MAX_DECK
    uint32_t n_hands                # C(n_cards, 5)
    binomial_table_t binom          # binom[n][k] = C(n, k) (0 when k > n), k <= HAND
    const uint16_t* hand_rank       # dense rank (handeval) of every 5-card hand, by colex index
    const uint32_t* hands_by_rank   # every hand's 5 positions, 6 bits each, by ascending dense rank
    const uint32_t* hand_start      # hands of dense rank r: hands_by_rank[hand_start[r] : hand_start[r + 1]]

# One thread's counts of swept hands holding each card subset, by subset size.  The types
# follow the bounds on a 52-card deck: a k-card subset lies in at most C(52 - k, 5 - k) hands.
# After the sweep every counter is checked against its exact final count (no overflow).
cdef struct Counters:
    uint32_t* one                   # each card: at most C(51, 4) = 249,900
    uint16_t* two                   # each 2-card subset: at most C(50, 3) = 19,600
    uint16_t* three                 # each 3-card subset: at most C(49, 2) = 1,176
    uint8_t* four                   # each 4-card subset: at most 48

# The situations to count, in runs of one player hand (consecutive rows with the same five
# cards), the runs grouped by the dense rank of the player's hand.
cdef struct SituationTable:
    Py_ssize_t count                # number of situations
    const uint8_t* rows             # count x 6 cards: five player cards, then the up card
    const uint8_t* position         # each card's deck position (N_CARDS entries)
    const uint32_t* run_first       # run r: rows run_first[r] .. run_first[r + 1] - 1
    const uint8_t* run_positions    # 5 per run: the player's positions, ascending
    const uint32_t* by_rank         # run indices by ascending dense rank of the player's hand
    const uint32_t* start           # player rank r: by_rank[start[r] : start[r + 1]]
    int qualifier_rank              # the dealer qualifies with a dense rank >= this
    uint32_t completions            # C(n_cards - 6, 4): the dealer's completions of one situation

# The hands of one dense rank, as the sweep reaches it: the dealer hands that tie a player
# hand of that rank.
cdef struct RankGroup:
    const uint32_t* hands           # count hands' positions, packed (DeckTables.hands_by_rank)
    uint64_t* mask                  # room for count masks: each hand's positions as bits
    Py_ssize_t count

# One thread's share of the sweep: the runs table.by_rank[k] with k % n_threads == thread
# (one share for the whole sweep, so no other thread reads what this one writes).  Its own
# buffers: `counters` (zeroed), `snapshot` and `own_masks` (room for the masks of the largest
# rank's hands).  out[outcome * table.count + i] receives the counts of situation i by
# outcome code (DEALER_NOT_QUALIFIED, PLAYER_WINS, PUSH_TIE, DEALER_WINS: outcome-major).
# Threads share nothing writable, so they run without any synchronisation.  Returns the
# number of its counts and counters found inconsistent (0 unless the kernel is wrong; the
# caller raises).
cdef Py_ssize_t sweep_share(const DeckTables* deck, const SituationTable* table, int thread, int n_threads,
                            Counters* counters, Counters* snapshot, uint64_t* own_masks,
                            uint32_t* out) noexcept nogil

# The dense rank of every 5-card hand of the deck, by colex index (hand_rank: deck.n_hands entries);
# deck.n_cards and deck.binom must be set, and `cards` holds the deck's cards by position.  Shares
# the hands' highest cards among OpenMP threads.
cdef void rank_hands(const DeckTables* deck, const card_t* cards, uint16_t* hand_rank) noexcept nogil
