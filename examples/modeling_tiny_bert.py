"""PyTorch TinyBERT: a small BERT-style encoder written like a Hugging Face `modeling_*.py` file.

GraphMend example. Under the default `assume-compiled = "module-forward"` every `forward` below is
a compile root; `finetune_tiny_bert.py` also passes the model to `torch.compile`. The lines that
make TorchDynamo break its graph carry a short comment naming the rule; see examples/README.md.
"""
import functools
import logging
import math
import threading
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn

logger = logging.getLogger(__name__)


@functools.lru_cache(None)
def _warning_once(self, *args):
    """Logs a message once per (logger, message), as `transformers.utils.logging` does."""
    self.warning(*args)


if not hasattr(logging.Logger, "warning_once"):
    logging.Logger.warning_once = _warning_once


class TinyBertConfig:
    model_type = "tiny_bert"

    def __init__(
        self,
        vocab_size: int = 1000,
        hidden_size: int = 64,
        num_hidden_layers: int = 2,
        num_attention_heads: int = 4,
        intermediate_size: int = 128,
        hidden_dropout_prob: float = 0.1,
        attention_probs_dropout_prob: float = 0.1,
        max_position_embeddings: int = 128,
        type_vocab_size: int = 2,
        layer_norm_eps: float = 1e-12,
        pad_token_id: int = 0,
        num_labels: int = 2,
        attn_implementation: str = "sdpa",
        problem_type: Optional[str] = None,
    ):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.layer_norm_eps = layer_norm_eps
        self.pad_token_id = pad_token_id
        self.num_labels = num_labels
        self.attn_implementation = attn_implementation
        self.problem_type = problem_type


class TinyBertCache:
    """Key/value cache for running TinyBERT as a decoder, shared by all layers (like DynamicCache).

    A lock makes `update` safe when several threads serve the same model and cache.
    """

    def __init__(self):
        self.key_cache: List[torch.Tensor] = []
        self.value_cache: List[torch.Tensor] = []
        self._lock = threading.Lock()

    def update(
        self, key_states: torch.Tensor, value_states: torch.Tensor, layer_idx: int
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        with self._lock:  # graph break: Dynamo cannot enter a lock (GM204)
            if len(self.key_cache) <= layer_idx:
                self.key_cache.append(key_states)
                self.value_cache.append(value_states)
            else:
                self.key_cache[layer_idx] = torch.cat(
                    [self.key_cache[layer_idx], key_states], dim=-2
                )
                self.value_cache[layer_idx] = torch.cat(
                    [self.value_cache[layer_idx], value_states], dim=-2
                )
            return self.key_cache[layer_idx], self.value_cache[layer_idx]

    def get_seq_length(self, layer_idx: int = 0) -> int:
        if len(self.key_cache) <= layer_idx:
            return 0
        return self.key_cache[layer_idx].shape[-2]


def get_extended_attention_mask(attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """Turns a [batch, seq] mask into an additive [batch, 1, 1, seq] mask for attention scores.

    Accepts 0/1 masks (1 = attend) and masks that are already additive (0 = attend, large
    negative = masked).
    """
    if attention_mask.dtype == torch.bool:
        attention_mask = attention_mask.to(dtype)
    extended = attention_mask[:, None, None, :].to(dtype)
    min_value = torch.finfo(dtype).min
    if extended.max() > 0:  # graph break: branch on the mask's values (GM101)
        extended = (1.0 - extended) * min_value
    return extended


class TinyBertEmbeddings(nn.Module):
    def __init__(self, config: TinyBertConfig):
        super().__init__()
        self.word_embeddings = nn.Embedding(
            config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id
        )
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.register_buffer(
            "position_ids", torch.arange(config.max_position_embeddings).expand((1, -1)),
            persistent=False,
        )

    def forward(
        self,
        input_ids: torch.Tensor,
        token_type_ids: Optional[torch.Tensor] = None,
        past_key_values_length: int = 0,
    ) -> torch.Tensor:
        seq_length = input_ids.size(1)
        if (input_ids < 0).any():  # graph break: validation guard on tensor values (GM103)
            raise ValueError("input_ids must not contain negative token ids")

        end = past_key_values_length + seq_length
        position_ids = self.position_ids[:, past_key_values_length:end]
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)

        embeddings = self.word_embeddings(input_ids)
        embeddings = embeddings + self.token_type_embeddings(token_type_ids)
        embeddings = embeddings + self.position_embeddings(position_ids)
        embeddings = self.LayerNorm(embeddings)
        return self.dropout(embeddings)


class TinyBertSelfAttention(nn.Module):
    def __init__(self, config: TinyBertConfig, layer_idx: int):
        super().__init__()
        if config.hidden_size % config.num_attention_heads != 0:
            raise ValueError(
                f"The hidden size ({config.hidden_size}) is not a multiple of the number of "
                f"attention heads ({config.num_attention_heads})"
            )
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = config.hidden_size // config.num_attention_heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.layer_idx = layer_idx
        self.attn_implementation = config.attn_implementation

        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dropout_prob = config.attention_probs_dropout_prob
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)

    def transpose_for_scores(self, x: torch.Tensor) -> torch.Tensor:
        new_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(
        self,
        hidden_states: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        past_key_value: Optional[TinyBertCache] = None,
        output_attentions: bool = False,
    ) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        batch_size, seq_length, _ = hidden_states.size()
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))

        if past_key_value is not None:
            key_layer, value_layer = past_key_value.update(key_layer, value_layer, self.layer_idx)

        if self.attn_implementation == "sdpa" and not output_attentions:
            context_layer = F.scaled_dot_product_attention(
                query_layer, key_layer, value_layer, attn_mask=attention_mask,
                dropout_p=self.dropout_prob if self.training else 0.0,
            )
            attention_probs = None
        else:
            attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
            attention_scores = attention_scores / math.sqrt(self.attention_head_size)
            if attention_mask is not None:
                attention_scores = attention_scores + attention_mask
            attention_probs = self.dropout(F.softmax(attention_scores, dim=-1))
            context_layer = torch.matmul(attention_probs, value_layer)

        context_layer = context_layer.permute(0, 2, 1, 3).reshape(batch_size, seq_length, -1)
        return context_layer, attention_probs


class TinyBertLayer(nn.Module):
    def __init__(self, config: TinyBertConfig, layer_idx: int):
        super().__init__()
        self.attention = TinyBertSelfAttention(config, layer_idx)
        self.attention_output = nn.Linear(config.hidden_size, config.hidden_size)
        self.attention_norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.intermediate = nn.Linear(config.hidden_size, config.intermediate_size)
        self.output = nn.Linear(config.intermediate_size, config.hidden_size)
        self.output_norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(
        self,
        hidden_states: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        past_key_value: Optional[TinyBertCache] = None,
        output_attentions: bool = False,
    ) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        context, attention_probs = self.attention(
            hidden_states, attention_mask, past_key_value, output_attentions
        )
        hidden_states = self.attention_norm(
            hidden_states + self.dropout(self.attention_output(context))
        )
        intermediate = F.gelu(self.intermediate(hidden_states))
        hidden_states = self.output_norm(hidden_states + self.dropout(self.output(intermediate)))
        return hidden_states, attention_probs


class TinyBertModel(nn.Module):
    def __init__(self, config: TinyBertConfig):
        super().__init__()
        self.config = config
        self.embeddings = TinyBertEmbeddings(config)
        self.layers = nn.ModuleList(
            [TinyBertLayer(config, layer_idx) for layer_idx in range(config.num_hidden_layers)]
        )
        self.pooler = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        token_type_ids: Optional[torch.Tensor] = None,
        past_key_values: Optional[TinyBertCache] = None,
        output_attentions: bool = False,
    ) -> Tuple[torch.Tensor, torch.Tensor, Optional[Tuple[torch.Tensor, ...]]]:
        if output_attentions and self.config.attn_implementation == "sdpa":
            logger.warning_once(  # graph break: logger call (GM102)
                "TinyBertModel uses SDPA attention, which cannot return attention weights; "
                "falling back to the eager attention implementation."
            )

        past_length = 0 if past_key_values is None else past_key_values.get_seq_length()
        if attention_mask is None:
            attention_mask = torch.ones(
                input_ids.shape[0], input_ids.shape[1] + past_length, device=input_ids.device
            )
        hidden_states = self.embeddings(input_ids, token_type_ids, past_length)
        extended_attention_mask = get_extended_attention_mask(attention_mask, hidden_states.dtype)

        all_attentions = () if output_attentions else None
        for layer in self.layers:
            hidden_states, attention_probs = layer(
                hidden_states, extended_attention_mask, past_key_values, output_attentions
            )
            if output_attentions:
                all_attentions = all_attentions + (attention_probs,)

        pooled_output = torch.tanh(self.pooler(hidden_states[:, 0]))
        return hidden_states, pooled_output, all_attentions


class TinyBertForSequenceClassification(nn.Module):
    def __init__(self, config: TinyBertConfig):
        super().__init__()
        self.config = config
        self.num_labels = config.num_labels
        self.bert = TinyBertModel(config)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: Optional[torch.Tensor] = None,
        token_type_ids: Optional[torch.Tensor] = None,
        labels: Optional[torch.Tensor] = None,
    ) -> Tuple[Optional[torch.Tensor], torch.Tensor]:
        _, pooled_output, _ = self.bert(input_ids, attention_mask, token_type_ids)
        logits = self.classifier(self.dropout(pooled_output))

        loss = None
        if labels is not None:
            # Branches on config values and dtypes: Dynamo guards on them, no graph break.
            if self.config.problem_type is None:
                if self.num_labels == 1:
                    self.config.problem_type = "regression"
                elif labels.dtype == torch.long or labels.dtype == torch.int:
                    self.config.problem_type = "single_label_classification"
                else:
                    self.config.problem_type = "multi_label_classification"

            if self.config.problem_type == "regression":
                loss = F.mse_loss(logits.squeeze(-1), labels.squeeze(-1).to(logits.dtype))
            elif self.config.problem_type == "single_label_classification":
                loss = F.cross_entropy(logits.view(-1, self.num_labels), labels.view(-1))
            else:
                loss = F.binary_cross_entropy_with_logits(logits, labels.to(logits.dtype))
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    config = TinyBertConfig()
    model = TinyBertForSequenceClassification(config).eval()
    input_ids = torch.randint(1, config.vocab_size, (2, 8))
    attention_mask = torch.ones(2, 8, dtype=torch.long)
    attention_mask[1, 6:] = 0
    labels = torch.tensor([0, 1])
    with torch.no_grad():
        loss, logits = model(input_ids, attention_mask, labels=labels)
        cache = TinyBertCache()
        hidden, _, attentions = model.bert(input_ids, past_key_values=cache, output_attentions=True)
    print("loss", round(loss.item(), 4), "logits", tuple(logits.shape),
          "cached tokens", cache.get_seq_length(), "attention maps", len(attentions))
