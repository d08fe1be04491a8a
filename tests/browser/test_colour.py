"""The browser tests' own colour and transform arithmetic, checked against known values."""

from __future__ import annotations

import pytest

from tests.browser.colour import contrast, transform_matrix


def test_contrast_arithmetic_matches_known_pairs():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("rgb(118, 118, 118)", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_transform_parser_rotates_a_line_upright():
    a, b, c, d, e, f = transform_matrix("translate(5 0) rotate(90)")
    assert (a, b) == pytest.approx((0, 1), abs=1e-12) and e == 5
