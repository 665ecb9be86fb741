"""Activations, losses, normalizations, dropout, embeddings and linear maps of torch.nn.functional (see functional.py)."""
