// placeholder for dependency warm-up
