package io.videoworld.query.api;

/** A time range of a video in seconds, as the seeds' answers carry it ({@code time_range}). */
public record TimeRange(double startTime, double endTime) {}
