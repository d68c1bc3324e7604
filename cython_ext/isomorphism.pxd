# Suit isomorphism: the canonical renaming of suits shared by every game's situation keys.
#
# A situation is a list of card groups (e.g. hole cards then flop; hand then up card).
# Each suit's signature concatenates its rank masks, group by group, first group in the
# high bits; suits are renamed by descending signature (largest -> suit 0 = clubs).
# Equal signatures are interchangeable suits, so the renamed situation is unique.
# Contract: both functions are noexcept nogil (they cannot fail, need no GIL), allocate
# nothing and write only their output arguments; callers ensure valid, distinct cards.
from cython_ext._types cimport card_t, uint8_t, uint64_t

# new_suit[s] = the canonical suit of suit s, from the four signatures.
cdef void suit_renaming(const uint64_t* signature, uint8_t* new_suit) noexcept nogil

# Canonical form of one situation in place: `cards` holds the groups back to back
# (sizes in group_sizes); renames suits, then sorts each group descending.
cdef void canonicalize(card_t* cards, const int* group_sizes, int n_groups) noexcept nogil
