package io.videoworld.perception;

import java.util.List;

/** The 80 COCO category names in the order COCO-trained detectors (CenterNet, YOLO) number them. */
public final class CocoLabels {
    public static final List<String> NAMES = List.of(
            "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
            "traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
            "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag",
            "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite", "baseball bat",
            "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle", "wine glass", "cup",
            "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange", "broccoli", "carrot",
            "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant", "bed", "dining table",
            "toilet", "tv", "laptop", "mouse", "remote", "keyboard", "cell phone", "microwave", "oven",
            "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors", "teddy bear", "hair drier",
            "toothbrush");

    private CocoLabels() {}

    /** The name of class {@code c}, or "class-c" for models with more classes than COCO. */
    public static String name(List<String> names, int c) {
        return c >= 0 && c < names.size() ? names.get(c) : "class-" + c;
    }
}
