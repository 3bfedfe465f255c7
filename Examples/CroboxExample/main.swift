// crobox-example (in progress)
