package io.videoworld.core;

/**
 * One line of text read from an image (OCR).
 *
 * @param text the text
 * @param x left edge in pixels
 * @param y top edge in pixels
 * @param width box width in pixels
 * @param height box height in pixels
 * @param score mean character confidence, 0-1
 */
public record TextLine(String text, int x, int y, int width, int height, double score) {}
