import SearchExample

extension MovieCatalog {
  /// A catalogue of `count` movies made up from `seed`: the same seed gives
  /// the same movies.
  public static func generated(count: Int, seed: UInt64) -> MovieCatalog {
    var random = SplitMix64(seed: seed)
    let movies = (0..<max(count, 0)).map { index in
      Movie(id: index + 1, title: title(&random), year: 1950 + random.next(below: 75))
    }
    return MovieCatalog(movies: movies)
  }

  private static func title(_ random: inout SplitMix64) -> String {
    let adjective = random.pick(adjectives)
    let noun = random.pick(nouns)
    let other = random.pick(nouns)
    let place = random.pick(places)
    switch random.next(below: 8) {
    case 0: return "The \(adjective) \(noun)"
    case 1: return "\(noun) of the \(other)"
    case 2: return "\(adjective) \(noun)"
    case 3: return "The \(noun) of \(place)"
    case 4: return "Return to \(place)"
    case 5: return "\(adjective) \(noun) \(random.pick(["II", "III", "IV"]))"
    case 6: return "A \(noun) in \(place)"
    default: return "\(noun) and \(other)"
    }
  }

  private static let adjectives = [
    "Silent", "Crimson", "Hidden", "Last", "Broken", "Golden", "Midnight", "Frozen", "Endless", "Distant",
    "Burning", "Forgotten", "Electric", "Wild", "Secret", "Iron", "Lonely", "Silver", "Dark", "Bright",
    "Restless", "Velvet", "Savage", "Quiet", "Falling", "Eternal", "Lost", "Shining", "Stolen", "Hollow",
  ]

  private static let nouns = [
    "Star", "Harbour", "River", "Moon", "City", "Garden", "Storm", "Mirror", "Kingdom", "Road",
    "Island", "Shadow", "Dream", "Ocean", "Mountain", "Letter", "Promise", "Machine", "Horizon", "Empire",
    "Forest", "Station", "Voyage", "Witness", "Stranger", "Signal", "Summer", "Winter", "Heart", "Crown",
    "Desert", "Lighthouse", "Orchard", "Engine", "Echo", "Frontier", "Sea", "Night", "Fire", "Sky",
  ]

  private static let places = [
    "Paris", "Tokyo", "Lisbon", "Nowhere", "Avalon", "the North", "Mars", "Babylon", "Eden", "Cairo",
    "Prague", "Havana", "Atlantis", "Kyoto", "Venice", "the Valley", "Alexandria", "Marrakesh", "Oslo", "Bombay",
  ]
}
