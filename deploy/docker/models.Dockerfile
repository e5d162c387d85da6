# The models as an image whose only job is to copy them into a volume (an init container in deploy/k8s,
# a one-shot service in docker-compose.yml). Build after `deploy/models.sh` filled .vw/models:
#   docker build -f deploy/docker/models.Dockerfile -t videoworld/models:0.1.0 .
FROM busybox:1.36
COPY .vw/models /models
CMD ["sh", "-c", "cp -r /models/. /target/"]
