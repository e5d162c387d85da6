# The query service's image. Flink's S3 filesystem sits beside it so that s3:// frame stores read the same
# objects the job wrote (configured from $VW_FS_CONF_DIR/config.yaml). Build from the repository root after
# `mvn -B -Pdist package -DskipTests`:
#   docker build -f deploy/docker/query-service.Dockerfile -t videoworld/query-service:0.1.0 .
FROM flink:2.2.1-java17 AS flink
FROM eclipse-temurin:17-jre
COPY --from=flink /opt/flink/opt/ /tmp/flink-opt/
RUN mkdir -p /opt/videoworld/lib && cp /tmp/flink-opt/flink-s3-fs-presto-*.jar /opt/videoworld/lib/ && rm -rf /tmp/flink-opt
COPY query-service/target/videoworld-query-service.jar /opt/videoworld/videoworld-query-service.jar
ENTRYPOINT ["java", "-cp", "/opt/videoworld/videoworld-query-service.jar:/opt/videoworld/lib/*", "io.videoworld.query.QueryServiceMain"]
