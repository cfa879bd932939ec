package demo

// The fixed vocabularies of the demo. All names are fictional; all e-mail
// domains are reserved example domains.

var firstNames = []string{
	"Anna", "Ben", "Clara", "David", "Elena", "Felix", "Grace", "Hugo", "Ines", "Jonas",
	"Kira", "Liam", "Maya", "Noah", "Olivia", "Paul", "Quinn", "Rosa", "Samuel", "Tara",
	"Umar", "Vera", "Walter", "Xenia", "Yusuf", "Zoe", "Amir", "Bianca", "Carlos", "Daria",
	"Emil", "Fatima", "Gabriel", "Hana", "Ivan", "Julia", "Kenji", "Lena", "Marco", "Nina",
	"Oscar", "Priya", "Rafael", "Sofia", "Tomas", "Ursula", "Victor", "Wen", "Yara", "Aiko",
	"Bruno", "Chloe", "Diego", "Eva", "Finn", "Greta", "Henrik", "Isla", "Jakub", "Leila",
}

var lastNames = []string{
	"Adler", "Baker", "Costa", "Dubois", "Eriksson", "Fischer", "Garcia", "Hoffmann", "Ito", "Jansen",
	"Kowalski", "Larsen", "Moreau", "Novak", "Okafor", "Patel", "Quintero", "Rossi", "Schmidt", "Tanaka",
	"Ueda", "Vargas", "Weber", "Xu", "Yilmaz", "Zimmermann", "Alvarez", "Becker", "Clarke", "Dias",
	"Evans", "Ferrari", "Gomez", "Hughes", "Iyer", "Johansson", "Kim", "Lopez", "Meyer", "Nakamura",
	"Olsen", "Perez", "Reyes", "Silva", "Turner", "Urban", "Villa", "Wagner", "Young", "Zielinski",
	"Bauer", "Carter", "Dawson", "Engel", "Fontaine", "Gupta", "Hartmann", "Keller", "Lindqvist", "Mendes",
}

// emailDomains are for consumer customers; business customers get a
// company domain under the reserved .example top-level domain.
var emailDomains = []string{"example.com", "example.net", "example.org", "mail.example.com"}

var companyWords = []string{
	"northwind", "bluepeak", "redfern", "oakline", "brightside", "silverleaf", "ironbridge",
	"greenfield", "harborview", "stonegate", "clearwater", "summit", "pinecrest", "lakeshore",
}

type country struct {
	name   string
	weight float64
	cities []string
}

var countries = []country{
	{"United States", 24, []string{"New York", "Chicago", "Austin", "Seattle", "Denver"}},
	{"Germany", 14, []string{"Berlin", "Munich", "Hamburg", "Cologne", "Frankfurt"}},
	{"United Kingdom", 11, []string{"London", "Manchester", "Leeds", "Bristol"}},
	{"France", 8, []string{"Paris", "Lyon", "Marseille", "Toulouse"}},
	{"Canada", 6, []string{"Toronto", "Vancouver", "Montreal"}},
	{"Netherlands", 5, []string{"Amsterdam", "Rotterdam", "Utrecht"}},
	{"Spain", 5, []string{"Madrid", "Barcelona", "Valencia"}},
	{"Italy", 5, []string{"Rome", "Milan", "Turin"}},
	{"Australia", 4, []string{"Sydney", "Melbourne", "Brisbane"}},
	{"Sweden", 3, []string{"Stockholm", "Gothenburg", "Malmo"}},
	{"Poland", 3, []string{"Warsaw", "Krakow", "Wroclaw"}},
	{"Japan", 3, []string{"Tokyo", "Osaka", "Kyoto"}},
	{"Brazil", 3, []string{"Sao Paulo", "Rio de Janeiro", "Curitiba"}},
	{"Mexico", 3, []string{"Mexico City", "Guadalajara", "Monterrey"}},
	{"India", 3, []string{"Mumbai", "Bangalore", "Delhi"}},
}

// item is a kind of product with a typical price.
type item struct {
	name  string
	price float64
}

type category struct {
	name   string
	weight float64 // how often it is bought
	brands []string
	items  []item
}

var categories = []category{
	{"Electronics", 0.8, []string{"Voltra", "Nimbus", "Pixelon", "Orbitek"}, []item{
		{"Wireless Earbuds", 79}, {"Bluetooth Speaker", 59}, {"USB-C Charger", 25}, {"27-inch 4K Monitor", 349},
		{"Mechanical Keyboard", 99}, {"Gaming Mouse", 49}, {"HD Webcam", 69}, {"Smartwatch", 199},
		{"Noise-Cancelling Headphones", 249}, {"Portable SSD 1TB", 119}, {"E-Reader", 139}, {"Power Bank", 39},
	}},
	{"Books", 1.3, []string{"Hardcover", "Paperback"}, []item{
		{"The Quiet Harbor", 18}, {"Atlas of Small Rivers", 32}, {"Cooking with Herbs", 26}, {"The Last Lighthouse", 16},
		{"Data for Busy People", 35}, {"A Year in the Garden", 24}, {"The Glass Orchard", 15}, {"Mountains at Dawn", 22},
		{"Learning to Sketch", 19}, {"Notes on Slow Travel", 21}, {"The Patient Investor", 28}, {"Tales from the North Sea", 14}, {"Modern Home Baking", 29},
	}},
	{"Home", 1.0, []string{"Hearth", "Linden", "Casa Nova", "Brightwell"}, []item{
		{"Ceramic Mug Set", 24}, {"Cotton Bath Towel", 19}, {"Table Lamp", 45}, {"Throw Blanket", 39},
		{"Cast Iron Skillet", 42}, {"Glass Food Containers", 29}, {"Scented Candle", 14}, {"Wall Clock", 35},
		{"Linen Bed Sheets", 89}, {"Chef's Knife", 59}, {"Storage Basket", 22}, {"Electric Kettle", 49},
	}},
	{"Garden", 0.7, []string{"Greenway", "Fernhill", "Terra", "Bloom & Co"}, []item{
		{"Garden Hose 25m", 45}, {"Pruning Shears", 24}, {"Raised Planter Box", 89}, {"Solar Path Lights", 39},
		{"Watering Can", 18}, {"Seed Starter Kit", 16}, {"Compost Bin", 69}, {"Garden Gloves", 12},
		{"Bird Feeder", 27}, {"Folding Garden Chair", 55}, {"Lawn Sprinkler", 29}, {"Patio Heater", 229},
	}},
	{"Toys", 0.9, []string{"Playwell", "Tinkertop", "Funbox", "Little Oak"}, []item{
		{"Wooden Building Blocks", 34}, {"Puzzle 1000 Pieces", 19}, {"Remote Control Car", 59}, {"Plush Bear", 22},
		{"Board Game Night", 39}, {"Kite", 17}, {"Science Kit", 44}, {"Doll House", 99},
		{"Marble Run", 49}, {"Card Game", 12}, {"Toy Train Set", 79}, {"Art Easel", 64},
	}},
	{"Sports", 0.8, []string{"Stride", "Peakform", "Velo", "Northline"}, []item{
		{"Yoga Mat", 29}, {"Running Shoes", 119}, {"Water Bottle", 15}, {"Adjustable Dumbbells", 189},
		{"Cycling Helmet", 69}, {"Tennis Racket", 89}, {"Resistance Bands", 19}, {"Hiking Backpack", 99},
		{"Jump Rope", 12}, {"Fitness Tracker", 79}, {"Football", 25}, {"Camping Tent", 249},
	}},
	{"Beauty", 1.0, []string{"Lumiere", "Pure Leaf", "Velvet", "Aqua Bloom"}, []item{
		{"Face Moisturizer", 24}, {"Shampoo", 11}, {"Lip Balm Set", 9}, {"Hair Dryer", 59},
		{"Sunscreen SPF 50", 16}, {"Perfume 50ml", 69}, {"Hand Cream", 8}, {"Makeup Brush Set", 29},
		{"Body Lotion", 13}, {"Face Serum", 34}, {"Nail Polish", 7}, {"Beard Trimmer", 45},
	}},
	{"Grocery", 1.6, []string{"Farmstead", "Good Grain", "Harvest", "Daily Table"}, []item{
		{"Ground Coffee 500g", 9}, {"Green Tea 50 Bags", 6}, {"Olive Oil 1L", 12}, {"Dark Chocolate Bar", 3.5},
		{"Granola 750g", 6.5}, {"Pasta 1kg", 3}, {"Honey 500g", 8}, {"Almonds 400g", 7.5},
		{"Sparkling Water 12-Pack", 6}, {"Basmati Rice 2kg", 7}, {"Peanut Butter", 4.5}, {"Maple Syrup", 11},
	}},
}

// A department of the company with its positions, highest first.
type department struct {
	name      string
	positions []position
}

// position is a job title held by n people. The first position of a
// department is its head, who reports to the chief executive; reportsTo
// is the index of the position whose holders manage this one.
type position struct {
	title     string
	n         int
	reportsTo int
	salary    [2]float64
}

var departments = []department{
	{"Executive", []position{{"Chief Executive Officer", 1, -1, [2]float64{210000, 240000}}}},
	{"Engineering", []position{
		{"VP Engineering", 1, -1, [2]float64{170000, 195000}},
		{"Engineering Manager", 2, 0, [2]float64{135000, 155000}},
		{"Senior Software Engineer", 4, 1, [2]float64{115000, 135000}},
		{"Software Engineer", 6, 1, [2]float64{85000, 110000}},
		{"Data Analyst", 2, 0, [2]float64{75000, 95000}},
	}},
	{"Customer Support", []position{
		{"Head of Customer Support", 1, -1, [2]float64{95000, 110000}},
		{"Support Team Lead", 2, 0, [2]float64{60000, 70000}},
		{"Support Agent", 12, 1, [2]float64{40000, 52000}},
	}},
	{"Sales", []position{
		{"Head of Sales", 1, -1, [2]float64{120000, 140000}},
		{"Account Executive", 5, 0, [2]float64{65000, 85000}},
		{"Sales Associate", 2, 0, [2]float64{45000, 55000}},
	}},
	{"Marketing", []position{
		{"Head of Marketing", 1, -1, [2]float64{115000, 135000}},
		{"Marketing Manager", 2, 0, [2]float64{75000, 90000}},
		{"Content Specialist", 2, 1, [2]float64{50000, 62000}},
		{"Growth Analyst", 2, 1, [2]float64{60000, 75000}},
	}},
	{"Operations", []position{
		{"Head of Operations", 1, -1, [2]float64{110000, 125000}},
		{"Warehouse Supervisor", 2, 0, [2]float64{55000, 65000}},
		{"Logistics Coordinator", 4, 1, [2]float64{42000, 52000}},
	}},
	{"Finance", []position{
		{"Chief Financial Officer", 1, -1, [2]float64{170000, 190000}},
		{"Accountant", 2, 0, [2]float64{62000, 75000}},
		{"Financial Analyst", 1, 0, [2]float64{70000, 82000}},
	}},
	{"People", []position{
		{"Head of People", 1, -1, [2]float64{105000, 120000}},
		{"HR Generalist", 1, 0, [2]float64{55000, 65000}},
		{"Recruiter", 1, 0, [2]float64{52000, 62000}},
	}},
}

// weighted is a name with a relative frequency.
type weighted struct {
	name   string
	weight float64
}

var ticketCategories = []weighted{
	{"Shipping", 30}, {"Returns", 18}, {"Product question", 17}, {"Billing", 15}, {"Account", 10}, {"Technical issue", 10},
}
