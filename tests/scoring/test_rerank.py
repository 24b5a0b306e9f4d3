"""scoring.standings.rerank: a division's part of the standings ranked again 1..n."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import rerank


@pytest.mark.parametrize(
    ("whole", "part"),
    [
        ([], []),
        ([1], [1]),
        ([3], [1]),
        ([1, 2, 3], [1, 2, 3]),
        ([2, 4, 7], [1, 2, 3]),
        ([2, 2, 5], [1, 1, 3]),  # a shared rank stays shared
        ([1, 3, 3, 3, 9], [1, 2, 2, 2, 5]),
        ([4, 4, 4], [1, 1, 1]),
        ([1, 2, 9, 10], [1, 2, 3, 4]),  # withdrawn players (ranked after) stay after
    ],
)
def test_a_part_is_ranked_again(whole, part):
    assert rerank(whole) == part


def test_ranks_that_go_down_are_a_mistake():
    with pytest.raises(ValueError, match="must not go down"):
        rerank([1, 3, 2])


def _ranked(groups: list[int]) -> list[int]:
    """Competition ranks of tied groups of these sizes ("1224")."""
    ranks: list[int] = []
    for size in groups:
        ranks += [len(ranks) + 1] * size
    return ranks


# A part of a whole field's competition ranks, in order (a division's rows).
competition = st.tuples(
    st.lists(st.integers(min_value=1, max_value=4), max_size=12), st.randoms()
).map(lambda drawn: sorted(r for r in _ranked(drawn[0]) if drawn[1].random() < 0.6))


@given(st.lists(st.integers(min_value=1, max_value=4), max_size=12))
def test_a_whole_field_is_ranked_as_it_was(groups):
    assert rerank(_ranked(groups)) == _ranked(groups)


@given(competition)
def test_each_rank_is_one_more_than_the_rows_strictly_above(ranks):
    out = rerank(ranks)
    assert out == [1 + sum(other < rank for other in ranks) for rank in ranks]


@given(competition)
def test_equal_stays_equal_and_order_is_kept(ranks):
    out = rerank(ranks)
    assert len(out) == len(ranks)
    assert out == sorted(out)
    for i in range(1, len(ranks)):
        assert (out[i] == out[i - 1]) == (ranks[i] == ranks[i - 1])
    assert all(1 <= new <= old for new, old in zip(out, ranks, strict=True))


@given(competition)
def test_ranking_again_changes_nothing_more(ranks):
    assert rerank(rerank(ranks)) == rerank(ranks)
