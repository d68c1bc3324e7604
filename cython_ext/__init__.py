"""Compiled counting kernels (Cython).  Python code imports them through `analyzer`."""
