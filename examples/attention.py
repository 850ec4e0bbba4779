"""Multi-head self-attention in the style of Hugging Face transformers models.

This file is a GraphMend example: it contains code that makes torch.compile break its graph.
"""
import math
from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn


class AttentionConfig:
    def __init__(self, hidden_size: int = 768, num_attention_heads: int = 12,
                 attention_dropout: float = 0.1, max_position_embeddings: int = 2048):
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
        self.attention_dropout = attention_dropout
        self.max_position_embeddings = max_position_embeddings


class SelfAttention(nn.Module):
    def __init__(self, config: AttentionConfig):
        super().__init__()
        if config.hidden_size % config.num_attention_heads != 0:
            raise ValueError(
                f"hidden_size ({config.hidden_size}) is not a multiple of "
                f"num_attention_heads ({config.num_attention_heads})"
            )
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.o_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.attention_dropout)

    def _shape(self, x: torch.Tensor, batch: int, seq_len: int) -> torch.Tensor:
        return x.view(batch, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(
        self,
        hidden_states: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        output_attentions: bool = False,
    ) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        batch, seq_len, _ = hidden_states.size()

        # Validation guard on tensor values: a graph break under torch.compile (GM103).
        if torch.isnan(hidden_states).any():
            raise ValueError("hidden_states contains NaN values")

        query = self._shape(self.q_proj(hidden_states), batch, seq_len)
        key = self._shape(self.k_proj(hidden_states), batch, seq_len)
        value = self._shape(self.v_proj(hidden_states), batch, seq_len)

        scores = torch.matmul(query, key.transpose(-1, -2)) * self.scale

        if attention_mask is not None:
            if attention_mask.size() != (batch, 1, seq_len, seq_len):
                raise ValueError(
                    f"Attention mask should be of size {(batch, 1, seq_len, seq_len)}, "
                    f"but is {attention_mask.size()}"
                )
            scores = scores + attention_mask

        # Data-dependent branch: the condition reads tensor values (GM101).
        if scores.max() > 1e4:
            scores = scores - scores.amax(dim=-1, keepdim=True)

        weights = F.softmax(scores, dim=-1, dtype=torch.float32).to(query.dtype)
        weights = self.dropout(weights)

        # Debug output left in the forward pass (GM102).
        print("attention entropy:", -(weights * weights.clamp_min(1e-9).log()).sum(-1).mean())

        context = torch.matmul(weights, value)
        context = context.transpose(1, 2).reshape(batch, seq_len, self.num_heads * self.head_dim)
        output = self.o_proj(context)
        return output, (weights if output_attentions else None)


class AttentionBlock(nn.Module):
    def __init__(self, config: AttentionConfig):
        super().__init__()
        self.norm = nn.LayerNorm(config.hidden_size)
        self.attn = SelfAttention(config)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        residual = x
        out, _ = self.attn(self.norm(x), attention_mask=mask)
        return residual + out
