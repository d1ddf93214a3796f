extension Player {
  /// How long the HUD stays after the last interaction: the RxFeedback article's 3 seconds.
  public static let hudHideDelay: Duration = .seconds(3)
  /// Where the intro starts, in seconds of the video.
  public static let introStart = 5
  /// Where the intro ends: the skip button seeks here.
  public static let introEnd = 65
  /// The countdown before the intro is skipped on its own: the RxFeedback article's 10 seconds.
  public static let skipIntroTime = 10
  /// The length of the video, in seconds.
  public static let videoLength = 600
  /// How far the arrow keys jump, in seconds.
  public static let jumpLength = 10
}
