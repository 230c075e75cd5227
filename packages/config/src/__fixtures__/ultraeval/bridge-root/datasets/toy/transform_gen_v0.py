# A transform written for the bridge tests, shaped like UltraEval's: it imports from the UltraEval
# package, prints (which must not reach the protocol), can fail, sleep, and report its process id.
import os
import random
import time

from UltraEval.tasks.postprocess import ShoutPost


def transform(data, num_sample: int, r: random.Random, dataset_name: str):
    print("a transform that prints")
    if data.get("sleep"):
        time.sleep(data["sleep"])
    options = list(data["target_scores"].keys())
    text = f"{dataset_name}|{num_sample}|{data['question']}|{','.join(options)}"
    _, shouted = ShoutPost()([], data.get("answer", ""))
    return {"input": text, "output": str(os.getpid()), "processed_output": shouted}
