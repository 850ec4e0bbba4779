# Non-ASCII identifiers (NFKC-normalised by CPython) and text.
café = 1
日本語 = "テキスト"
ﬁle = 2  # NFKC: "file"
𝔘𝔫𝔦𝔠𝔬𝔡𝔢 = 3  # astral letters
Ω = "Ω" + '𝔘' + f"{café}{日本語}𝔘{Ω}"
def función(παράμετρος, *, ключ=None): return παράμετρος
x = "emoji 😀 " + f"{'😀'}" ; y = café
