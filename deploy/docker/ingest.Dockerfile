# The ingest job's image for deploy/k8s (FlinkDeployment) and docker-compose.yml: Flink with the job jar
# in usrlib and the S3 filesystem plugin enabled. Build from the repository root after
# `mvn -B -Pdist package -DskipTests`:
#   docker build -f deploy/docker/ingest.Dockerfile -t videoworld/ingest:0.1.0 .
FROM flink:2.2.1-java17
RUN mkdir -p /opt/flink/plugins/s3-fs-presto && cp /opt/flink/opt/flink-s3-fs-presto-*.jar /opt/flink/plugins/s3-fs-presto/
COPY jobs/target/videoworld-ingest.jar /opt/flink/usrlib/videoworld-ingest.jar
