"""The Spite & Malice endpoints' serializers: what they take (``inputs``) and what they return
(``outputs``)."""
