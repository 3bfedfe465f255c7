print("warmup")
