"""Questions answered from the kernels' counts: one hand, bid tables by class, simulations, matches."""
