"""Circuits: a federation's season across the clubs of one install (layer 3, above games)."""
