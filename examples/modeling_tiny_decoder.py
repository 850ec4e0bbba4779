"""PyTorch TinyDecoder: a small causal language model with a sparse mixture-of-experts MLP, written
like a Hugging Face `modeling_*.py` file (Llama-style attention, Mixtral-style experts).

GraphMend example. Under the default `assume-compiled = "module-forward"` every `forward` below is
a compile root. Most graph breaks here (scalar reads, dynamic shapes, clocks) have no source
rewrite; the `print` and `warnings.warn` calls do. See examples/README.md.
"""
import math
import time
import warnings
from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn


class TinyDecoderConfig:
    model_type = "tiny_decoder"

    def __init__(
        self,
        vocab_size: int = 1000,
        hidden_size: int = 64,
        intermediate_size: int = 96,
        num_hidden_layers: int = 2,
        num_attention_heads: int = 4,
        num_local_experts: int = 4,
        num_experts_per_tok: int = 2,
        max_position_embeddings: int = 128,
        rms_norm_eps: float = 1e-6,
        rope_theta: float = 10000.0,
        pad_token_id: int = 0,
        tie_word_embeddings: bool = True,
    ):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.intermediate_size = intermediate_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.num_local_experts = num_local_experts
        self.num_experts_per_tok = num_experts_per_tok
        self.max_position_embeddings = max_position_embeddings
        self.rms_norm_eps = rms_norm_eps
        self.rope_theta = rope_theta
        self.pad_token_id = pad_token_id
        self.tie_word_embeddings = tie_word_embeddings


class TinyDecoderRMSNorm(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class TinyDecoderRotaryEmbedding(nn.Module):
    def __init__(self, dim: int, base: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, position_ids: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        freqs = position_ids[:, :, None].float() * self.inv_freq[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


class TinyDecoderAttention(nn.Module):
    def __init__(self, config: TinyDecoderConfig):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)
        self.o_proj = nn.Linear(config.hidden_size, config.hidden_size, bias=False)

    def forward(
        self,
        hidden_states: torch.Tensor,
        position_embeddings: Tuple[torch.Tensor, torch.Tensor],
        attention_mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        bsz, q_len, _ = hidden_states.size()
        query = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim)
        key = self.k_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim)
        value = self.v_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim)
        query, key, value = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)

        cos, sin = position_embeddings
        query, key = apply_rotary_pos_emb(query, key, cos, sin)

        scores = torch.matmul(query, key.transpose(2, 3)) / math.sqrt(self.head_dim)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(query.dtype)
        output = torch.matmul(probs, value).transpose(1, 2).reshape(bsz, q_len, -1)
        return self.o_proj(output)


class TinyDecoderExpert(nn.Module):
    def __init__(self, config: TinyDecoderConfig):
        super().__init__()
        self.w1 = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.w2 = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)
        self.w3 = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(hidden_states)) * self.w3(hidden_states))


class TinyDecoderSparseMoeBlock(nn.Module):
    """Top-k routing over a few experts; each expert runs only on the tokens routed to it."""

    def __init__(self, config: TinyDecoderConfig):
        super().__init__()
        self.num_experts = config.num_local_experts
        self.top_k = config.num_experts_per_tok
        self.gate = nn.Linear(config.hidden_size, config.num_local_experts, bias=False)
        self.experts = nn.ModuleList([TinyDecoderExpert(config) for _ in range(self.num_experts)])

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(hidden_states.dtype)

        final_hidden_states = torch.zeros_like(hidden_states)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            expert_layer = self.experts[expert_idx]
            idx, top_x = torch.where(expert_mask[expert_idx])  # graph break: dynamic shape (GM202)
            current_state = hidden_states[top_x]
            current_hidden_states = expert_layer(current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current_hidden_states)
        return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim)


class TinyDecoderLayer(nn.Module):
    def __init__(self, config: TinyDecoderConfig):
        super().__init__()
        self.self_attn = TinyDecoderAttention(config)
        self.block_sparse_moe = TinyDecoderSparseMoeBlock(config)
        self.input_layernorm = TinyDecoderRMSNorm(config.hidden_size, eps=config.rms_norm_eps)
        self.post_attention_layernorm = TinyDecoderRMSNorm(
            config.hidden_size, eps=config.rms_norm_eps
        )

    def forward(
        self,
        hidden_states: torch.Tensor,
        position_embeddings: Tuple[torch.Tensor, torch.Tensor],
        attention_mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        attn_output = self.self_attn(hidden_states, position_embeddings, attention_mask)
        hidden_states = residual + attn_output
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        return residual + self.block_sparse_moe(hidden_states)


class TinyDecoderModel(nn.Module):
    def __init__(self, config: TinyDecoderConfig):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size, config.pad_token_id)
        self.layers = nn.ModuleList(
            [TinyDecoderLayer(config) for _ in range(config.num_hidden_layers)]
        )
        self.norm = TinyDecoderRMSNorm(config.hidden_size, eps=config.rms_norm_eps)
        self.rotary_emb = TinyDecoderRotaryEmbedding(
            config.hidden_size // config.num_attention_heads, base=config.rope_theta
        )

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        position_ids: Optional[torch.Tensor] = None,
        head_mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        if head_mask is not None:
            warnings.warn(  # graph break: skipped function (GM102)
                "`head_mask` is deprecated and has no effect; it will be removed in v2.",
                FutureWarning,
            )

        batch_size, seq_length = input_ids.shape
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        if position_ids is None:
            position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)

        # Causal mask plus padding mask, additive, [batch, 1, seq, seq].
        device = input_ids.device
        causal = torch.ones(seq_length, seq_length, dtype=torch.bool, device=device).tril()
        allowed = causal[None, None, :, :] & attention_mask[:, None, None, :].bool()
        min_value = torch.finfo(self.embed_tokens.weight.dtype).min
        causal_mask = torch.zeros(allowed.shape, device=device).masked_fill(~allowed, min_value)

        hidden_states = self.embed_tokens(input_ids)
        position_embeddings = self.rotary_emb(position_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, position_embeddings, causal_mask)
        return self.norm(hidden_states)


class TinyDecoderForCausalLM(nn.Module):
    def __init__(self, config: TinyDecoderConfig):
        super().__init__()
        self.config = config
        self.model = TinyDecoderModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.lm_head.weight = self.model.embed_tokens.weight
        self.last_forward_seconds = 0.0
        self.apply(self._init_weights)

    def _init_weights(self, module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        labels: Optional[torch.Tensor] = None,
    ) -> Tuple[Optional[torch.Tensor], torch.Tensor]:
        start = time.perf_counter()  # graph break: clock read (GM203)
        hidden_states = self.model(input_ids, attention_mask)
        logits = self.lm_head(hidden_states).float()
        print("hidden state rms:", hidden_states.pow(2).mean().sqrt())  # debug print (GM102)

        loss = None
        if labels is not None:
            shift_logits = logits[:, :-1, :].reshape(-1, self.config.vocab_size)
            shift_labels = labels[:, 1:].reshape(-1)
            active = shift_labels != -100
            active_logits = shift_logits[active]  # graph break: boolean-mask indexing (GM202)
            active_labels = shift_labels[active]  # graph break: boolean-mask indexing (GM202)
            num_items_in_batch = active.sum().item()  # graph break: scalar read (GM201)
            loss = F.cross_entropy(active_logits, active_labels, reduction="sum")
            loss = loss / max(num_items_in_batch, 1)

        self.last_forward_seconds = time.perf_counter() - start  # graph break: clock read (GM203)
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    config = TinyDecoderConfig()
    model = TinyDecoderForCausalLM(config).eval()
    input_ids = torch.randint(1, config.vocab_size, (2, 8))
    attention_mask = torch.ones(2, 8, dtype=torch.long)
    attention_mask[1, :2] = 0
    labels = input_ids.masked_fill(attention_mask == 0, -100)
    with torch.no_grad():
        loss, logits = model(input_ids, attention_mask, labels=labels)
    print("loss", round(loss.item(), 4), "logits", tuple(logits.shape),
          "forward took %.4f s" % model.last_forward_seconds)
