"""Background work shared by both games: the job queue, its runner and the periodic checks."""
