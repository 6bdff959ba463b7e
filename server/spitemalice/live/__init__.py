"""Live updates of Spite & Malice matches over WebSockets (consumers, publish, presence)."""
