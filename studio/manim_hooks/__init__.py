"""Manim hooks (filled in below)."""
