# Stands in for UltraEval's tasks/postprocess.py: a transform imports it as UltraEval.tasks.postprocess.
class ShoutPost:
    def __call__(self, raw_outputs, text):
        return raw_outputs, [text.upper()]
