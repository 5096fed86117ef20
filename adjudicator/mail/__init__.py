"""Mail handling of the judge: reading what players wrote, recognising
mail that must never be answered."""
