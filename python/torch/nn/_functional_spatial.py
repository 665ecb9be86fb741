"""Spatial operations of torch.nn.functional (see functional.py)."""
