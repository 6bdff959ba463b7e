"""gunicorn settings shared by `make run`, the Dockerfile and docker-compose.yml.

gunicorn reads ./gunicorn.conf.py by itself; each caller passes only --bind and the app.
"""

workers = 2
worker_class = "gthread"
threads = 4
accesslog = "-"
# The default control socket sits at one path in $HOME, which a second server on the same machine
# (a test run beside `make run`) would fight over, and which the container's user has no home for.
control_socket_disable = True
