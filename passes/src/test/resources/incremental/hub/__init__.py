# IncrementalAnalysisTest: a package whose models import one shared module (activations), as
# transformers' 400 models import its activations.py: editing that module must keep the calls
# followed in the models (which name none of its definitions) and re-follow those that do.
