"""Punto banco Baccarat."""
